/**
 * The tree's filter box and `--filter`-style arguments: a glob when the text has * ? or [,
 * otherwise a substring of the path. Both are case-insensitive.
 * A glob matches the whole path or any part of it that starts at a folder boundary, as a
 * user expects of "*.uasset" (every .uasset) and "Content/**\/T_*" (below any Content folder);
 * a leading "/" anchors it at the root ("/Game/**" only below a top folder named Game).
 *   *    any characters within one folder name
 *   **   any characters across folders ("**\/" also matches no folder at all)
 *   ?    one character other than "/"
 *   [ab] [a-z] [!a]  one character of (or not of) a set
 */

/** Tests a path that is already lowercased (the install keeps lowercased paths for this). */
export type LowerPathMatcher = (lowerPath: string) => boolean;

export function isGlob(filter: string): boolean {
  return /[*?[]/.test(filter);
}

export function compilePathFilter(filter: string): LowerPathMatcher {
  const lower = filter.toLowerCase();
  if (!isGlob(lower)) return (p) => p.includes(lower);
  const re = globToRegExp(lower);
  return (p) => re.test(p);
}

/** Several filters as `--filter` repeated takes them: a path matching any is in; undefined when none is given. */
export function compilePathFilters(filters: readonly string[]): LowerPathMatcher | undefined {
  const matchers = filters.filter((f) => f !== '').map(compilePathFilter);
  if (matchers.length === 0) return undefined;
  return matchers.length === 1 ? matchers[0] : (p) => matchers.some((m) => m(p));
}

/** The glob as a regular expression over a whole path (see the rules above). */
export function globToRegExp(glob: string): RegExp {
  // "/x" anchors at the root; "x" may begin the path or follow any "/".
  return glob.startsWith('/') ? new RegExp(`^${globBody(glob.slice(1))}$`) : new RegExp(`(?:^|/)${globBody(glob)}$`);
}

function globBody(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        // "**/" may stand for no folder at all: "a/**/b" matches "a/b".
        if (glob[i + 1] === '/') {
          i++;
          out += '(?:.*/)?';
        } else {
          out += '.*';
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const negate = glob[i + 1] === '!' || glob[i + 1] === '^';
      const start = i + 1 + (negate ? 1 : 0);
      const end = glob.indexOf(']', start + 1); // a "]" first in the set is a member
      if (end < 0) {
        out += '\\[';
        continue;
      }
      const body = glob.slice(start, end).replace(/[\\\]^]/g, '\\$&');
      out += negate ? `[^/${body}]` : `[${body}]`;
      i = end;
    } else {
      out += c.replace(/[.+^${}()|\\/\]]/g, '\\$&');
    }
  }
  return out;
}
