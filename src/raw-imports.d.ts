/** Vite's `?raw` imports (a file's text, bundled at build): src/pages/methodology.html.ts. */
declare module '*?raw' {
  const text: string;
  export default text;
}
