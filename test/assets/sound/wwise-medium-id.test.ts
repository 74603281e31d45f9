// Media named by id: one reading of the file name (mediumIdOfPath) for the tree's labels, ls and
// the .wem's own view (wemIdOfPath, the .wem files of it).
import { describe, expect, it } from 'vitest';
import { mediumIdOfPath } from '../../../src/core/assets/sound/wwise/install-labels.js';
import { wemIdOfPath } from '../../../src/core/assets/sound/wwise/soundbank.js';

describe('Wwise media named by id', () => {
  it('a .wem named by its id anywhere, a media asset only in a Media folder, no other name', () => {
    const paths = ['Game/Content/WwiseAudio/Media/115002319.wem', '115002319.wem', 'Game/Content/WwiseAudio/Media/47342949.uasset',
      'Game/Content/Maps/47342949.uasset', 'Game/Media/Hit_01_123456.wem', 'Game/Media/4294967296.wem', 'Game/Media/.wem', 'Game/Media/12345678901.wem'];
    expect(paths.map(mediumIdOfPath)).toEqual([115002319, 115002319, 47342949, undefined, undefined, undefined, undefined, undefined]);
    expect(paths.map(wemIdOfPath)).toEqual([115002319, 115002319, undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('a .wem on a Windows path is named by its id too', () => {
    expect(wemIdOfPath('C:\\Game\\Media\\4294967295.WEM')).toBe(4294967295);
  });
});
