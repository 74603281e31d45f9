// The package dependency graph of an install (container headers; classic import maps).
export { DependencyGraph, DependencyGraphBuilder, type GraphCounts, type GraphStep } from './dependency-graph.js';
export { buildDependencyGraph, nameImportedPackages, type BuildGraphOptions } from './build-graph.js';
