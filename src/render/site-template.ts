/**
 * The version of the static pages' template: the token page, the creator page and the frame they
 * share (src/render/). **Bump it whenever a page's bytes change.** A change that reaches a token
 * or creator page (its own markup or the frame) changes the pinned pages of
 * tests/integration/render-pinned.test.ts, and that test fails until {@link SITE_TEMPLATE_PINNED}
 * is the sha256 of their new table (it prints it) and this version has been raised. On its next start the collector compares it with the version the pages on disk
 * were written by (public `meta` key {@link SITE_TEMPLATE_META}) and, when it differs, lists every
 * record's page and every creator page to be written again (src/ingest/page-backlog.ts).
 */
export const SITE_TEMPLATE_VERSION = 15;

/** The sha256 of the pinned pages' table (render-pinned.test.ts `PINNED`, `name sha256` lines) this version renders. */
export const SITE_TEMPLATE_PINNED = 'd41bfa5e581ac3e8e4a06ef5cf89a535d1e2d6d1946bc6eae87fe01ae1746621';

/** The public `meta` key holding the template version the pages on disk were written by. */
export const SITE_TEMPLATE_META = 'site_template_version';
