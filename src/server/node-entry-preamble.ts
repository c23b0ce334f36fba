/**
 * Evaluated before @astrojs/node's server module (node-entry.ts imports it first): that module
 * starts its server on import unless ASTRO_NODE_AUTOSTART is `disabled`. node-entry.ts starts it
 * itself, so it can put the front door and the timeouts on it; whether the operator disabled
 * autostart is kept here.
 */
export const autostart = process.env.ASTRO_NODE_AUTOSTART !== 'disabled';
process.env.ASTRO_NODE_AUTOSTART = 'disabled';
