/**
 * charts.ts `remembered`: the markup of a series' first-window section is drawn at a record's first
 * render and not kept, drawn again and kept at the second with the same object and values, and
 * reused from then on; other values, or another object, draw again.
 */
import { describe, expect, it } from 'vitest';
import { raw } from 'hono/html';
import { drawnSections, forgetDrawnSections, remembered } from '../../src/render/charts.ts';

describe('remembered sections', () => {
  const drawn = drawnSections<object>();
  const counter = () => {
    let n = 0;
    return { draw: () => raw(`<p>${++n}</p>`), count: () => n };
  };

  it('keeps the markup from the second drawing of the same object and values on', () => {
    const part = {};
    const c = counter();
    expect(String(remembered(drawn, part, ['a', 1], c.draw))).toBe('<p>1</p>');
    expect(String(remembered(drawn, part, ['a', 1], c.draw))).toBe('<p>2</p>');
    expect(String(remembered(drawn, part, ['a', 1], c.draw))).toBe('<p>2</p>');
    expect(String(remembered(drawn, part, ['a', 1], c.draw))).toBe('<p>2</p>');
    expect(c.count()).toBe(2);
  });

  it('draws again for other values or another object, and after forgetDrawnSections', () => {
    const part = {};
    const c = counter();
    remembered(drawn, part, ['a'], c.draw);
    remembered(drawn, part, ['a'], c.draw);
    expect(String(remembered(drawn, part, ['b'], c.draw))).toBe('<p>3</p>');
    expect(String(remembered(drawn, part, ['b', 2], c.draw))).toBe('<p>4</p>');
    expect(String(remembered(drawn, {}, ['b', 2], c.draw))).toBe('<p>5</p>');
    remembered(drawn, part, ['b', 2], c.draw); // second drawing with these values: kept
    expect(String(remembered(drawn, part, ['b', 2], c.draw))).toBe('<p>6</p>');
    forgetDrawnSections();
    expect(String(remembered(drawn, part, ['b', 2], c.draw))).toBe('<p>7</p>');
    expect(c.count()).toBe(7);
  });
});
