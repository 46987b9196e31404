/** Types of module-cycles.js. */
export const allowedCycleEdges: readonly { from: string; to: string; reason: string }[];
