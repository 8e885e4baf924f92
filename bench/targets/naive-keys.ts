/** The naive design's own key: one news page's JSON, seeded by the orchestrator. */
export const naivePageKey = (page: number, limit: number) => `bench:naive:news:${page}:${limit}`;
