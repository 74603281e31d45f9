// The package dependency graph of an install (container headers; classic import maps).
export { DependencyGraph, type GraphCounts, type GraphStep } from './dependency-graph.js';
export { DependencyGraphBuilder } from './graph-builder.js';
export { buildDependencyGraph, nameImportedPackages, type BuildGraphOptions } from './build-graph.js';
