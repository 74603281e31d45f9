/**
 * The window title names the open install: "PakScope — Fortnite". A game's containers live in
 * <Game>/Content/Paks, so a folder named Paks is named after the game folder above it.
 */
import { APP_NAME } from './app-identity.js';

export function windowTitle(root: string | null): string {
  return root === null ? APP_NAME : `${APP_NAME} — ${installName(root)}`;
}

/** The name a person knows the install by; Windows and POSIX separators both count. */
export function installName(root: string): string {
  const parts = root.split(/[\\/]+/).filter(Boolean);
  if (parts.length === 0) return root;
  let i = parts.length - 1;
  if (/^paks$/i.test(parts[i]!) && i > 0) {
    i--;
    if (/^content$/i.test(parts[i]!) && i > 0) i--;
  }
  return parts[i]!;
}
