/**
 * `pakscope thumbnail <file> -o out.png`: writes the thumbnail an editor package carries (the
 * Content Browser's image), as stored: PNG, or JPEG for UE5 packages saved that way.
 */
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { openPackageFile, type OpenedPackage } from '../../core/package/open-package.js';
import { findThumbnail } from '../../core/package/thumbnail.js';
import { isContainerFile } from '../../core/install/scan.js';
import { JSON_OPTION, type Command } from '../command.js';
import { EXIT_BAD_INPUT } from '../session.js';
import { UsageError } from '../usage-error.js';
import { ENGINE_OPTION, openInstallPackage, packageOptions } from './info.js';

export const thumbnailCommand: Command = {
  name: 'thumbnail',
  args: '<path> [package]',
  summary: 'Write the thumbnail an editor package carries to a .png or .jpg (-o)',
  description: [
    'Writes the thumbnail of a package file (<path> alone: .uasset, .umap) or of a package inside',
    'the containers and folders of <path> (named as info names it) to the file -o names, exactly',
    'as stored. Editor (uncooked) packages carry thumbnails; cooked and IoStore packages do not,',
    'and a package without one exits 2. The file\'s extension must fit the image: .png for PNG,',
    '.jpg or .jpeg for JPEG (UE5 may save JPEG); -o - writes the image to stdout. --object NAME',
    'picks the thumbnail of one object where a package has several (default: the asset\'s).',
    '',
    '--json prints {"file","object","class","format","width","height","size"} on stdout.',
  ].join('\n'),
  examples: [
    'pakscope thumbnail Content/Materials/M_Rock.uasset -o M_Rock.png',
    'pakscope thumbnail Project/Content /Game/Materials/M_Rock -o M_Rock.png --json',
  ],
  options: {
    out: { type: 'string', short: 'o', usage: '-o, --out FILE', help: 'The image file to write (- for stdout).' },
    object: { type: 'string', usage: '--object NAME', help: 'The object whose thumbnail to write, where there are several.' },
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const target = values['out'];
    if (typeof target !== 'string' || target === '') throw new UsageError('-o FILE names the image file to write', 'thumbnail');
    let opened: OpenedPackage | undefined;
    if (args.length === 2) {
      opened = await openInstallPackage(session, args[0]!, args[1]!, values);
      if (!opened) return;
    } else {
      const [path] = args as [string];
      await session.requireFile(path, 'thumbnail');
      if (isContainerFile(path)) throw new UsageError(`${path} is a container: name the package inside it too (thumbnail <path> <package> -o FILE)`, 'thumbnail');
      opened = await openPackageFile(path, packageOptions(values));
    }
    const m = opened.model;
    const object = typeof values['object'] === 'string' ? values['object'] : undefined;
    const image = findThumbnail(m, object);
    if (!image) {
      const what = object !== undefined ? `no thumbnail for object "${object}"` : 'no thumbnail';
      const has = m.thumbnails.length > 0 ? ` (it has ${m.thumbnails.map((t) => `${t.object}: ${t.format}`).join(', ')})` : m.format === 'uasset' ? '' : ` (${m.format === 'zen' ? 'IoStore' : 'UE1/2'} packages carry none)`;
      session.out.error(`${opened.path}: ${what}${has}; editor packages saved with a thumbnail have one, cooked packages none`);
      session.fail(EXIT_BAD_INPUT);
      return;
    }
    if (target === '-') {
      await session.out.bytes(image.data);
      return;
    }
    const ext = extname(target).toLowerCase();
    if (!image.extensions.includes(ext)) {
      throw new UsageError(`the thumbnail is a ${image.format.toUpperCase()} image: name the output ${image.extensions.join(' or ')}, not "${ext || target}"`, 'thumbnail');
    }
    await writeFile(target, image.data);
    const summary = { file: target, object: image.object, class: image.class, format: image.format, width: image.width, height: image.height, size: image.data.length };
    if (session.json) await session.out.line(JSON.stringify(summary));
    else session.out.note(`wrote ${target}: ${image.format.toUpperCase()} ${image.width}x${image.height}, ${image.data.length} bytes (${image.object})`);
  },
};
