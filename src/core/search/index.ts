export { buildSearchIndex, type SearchBuildOptions, type SearchBuildProgress } from './search-build.js';
export { loadSearchIndex, saveSearchIndex, searchIndexKey } from './index-cache.js';
export {
  HIT_KIND_NAMES, SEARCH_GROUPS, SearchIndex, type HitKindName, type SearchGroup, type SearchMatch, type SearchQuery,
} from './search-index.js';
