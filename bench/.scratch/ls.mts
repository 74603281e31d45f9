import { openInstall } from '/work/main/src/core/install/install.ts';
import { KeyRing } from '/work/main/src/core/crypto/keys.ts';
import { readFileSync } from 'node:fs';
const m = JSON.parse(readFileSync('/tmp/bx/tiny/manifest.json', 'utf8'));
const inst = await openInstall([m.root], { keys: KeyRing.fromArgs([m.aesKeyArg]) });
for (const d of ['Game/Content/Environments/Forest/Materials', 'Game/Content/Weapons/Staffs', 'Game/Content/Maps/Arenas']) console.log(d, inst.listDir(d).map((e) => `${e.name}${e.isDir ? '/' : ''}`).join(' '));
