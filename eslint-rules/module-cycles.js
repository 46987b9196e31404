/**
 * Known import cycles between server modules (issue 14, item 4), as the edges that close them.
 * Without these edges the module graph is acyclic; `pv/module-boundaries` reports any other edge
 * that closes a cycle. Each entry says why it exists and how it goes away. The list may only
 * shrink: eslint-rules/module-boundaries.test.ts fails when an entry is added or no longer needed.
 */
export const allowedCycleEdges = [
  {
    from: 'dictionaries',
    to: 'cases',
    reason:
      "Recoding saves cases through the case service and the dictionaries register their check findings with cases; cases should hand the coding job its save through a registration. (The demo seed's edge is gone: the demo releases live in dictionaries/demo.ts.)",
  },
];
