#!/usr/bin/python3
"""An independent reading of FPackageFileSummary's table counts, for the tests.

Written from the engine's FPackageFileSummary serializer (PackageFileSummary.cpp,
operator<<(FStructuredArchive::FSlot, FPackageFileSummary&)), field by field, sharing no code
with PakScope's parser: for each .uasset/.umap path given, prints one JSON object per line with
the name, import and export counts and offsets the header states.
Usage: uasset_counts.py FILE[=RELEASE]... > lines of {"file", "names", "nameOffset", "imports", ...}
An unversioned cooked UE5 package does not say which UE5 layout it has (the engine reading it
assumes its own): RELEASE ("5.4", from the corpus manifest) says it; the one field that turns on
it before the counts is 5.1's soft object path list.
"""
import json
import struct
import sys

PKG_FILTER_EDITOR_ONLY = 0x80000000
# EUnrealEngineObjectUE4Version / UE5Version values the layout turns on.
UE4_SERIALIZE_TEXT_IN_PACKAGES = 459
UE4_ADDED_PACKAGE_SUMMARY_LOCALIZATION_ID = 516
UE4_LATEST = 522
UE5_ADD_SOFTOBJECTPATH_LIST = 1008
UE5_METADATA_SERIALIZATION_OFFSET = 1014
UE5_VERSE_CELLS = 1015
UE5_PACKAGE_SAVED_HASH = 1016


class Reader:
    def __init__(self, data):
        self.data = data
        self.at = 0

    def i32(self):
        (v,) = struct.unpack_from('<i', self.data, self.at)
        self.at += 4
        return v

    def skip(self, n):
        self.at += n

    def fstring(self):
        n = self.i32()
        if n < 0:
            self.skip(-n * 2)
        else:
            self.skip(n)


def counts(path, data, release):
    r = Reader(data)
    if r.i32() != -1641380927:  # 0x9E2A83C1, PACKAGE_FILE_TAG
        raise ValueError('not a package')
    legacy = r.i32()
    if legacy >= 0:
        raise ValueError('UE3 package')
    if legacy != -4:
        r.i32()  # LegacyUE3Version
    ue4 = r.i32()
    ue5 = r.i32() if legacy <= -8 else 0
    r.i32()  # licensee
    # LegacyFileVersion -9 (UE5.6) moved the saved hash and the header size in front of the custom versions.
    if legacy <= -9:
        r.skip(20)  # SavedHash (FIoHash)
        r.i32()  # TotalHeaderSize
    if legacy <= -2:
        n = r.i32()
        if not 0 <= n <= 1000:
            raise ValueError(f'custom version count {n}')
        # Custom version records: -2 enum (tag, version), -3..-5 guid+version+friendly name, -6.. guid+version.
        for _ in range(n):
            if legacy == -2:
                r.skip(8)
            elif legacy >= -5:
                r.skip(20)
                r.fstring()
            else:
                r.skip(20)
    if ue4 == 0 and ue5 == 0:
        # Unversioned (cooked): the engine that reads it assumes its own latest versions.
        ue4 = UE4_LATEST
        if legacy <= -8:
            if not release:
                raise ValueError('unversioned UE5 package: give its release')
            ue5 = UE5_ADD_SOFTOBJECTPATH_LIST if release != '5.0' else 1004
    if legacy > -9:
        if ue5 >= UE5_PACKAGE_SAVED_HASH:
            r.skip(20)  # SavedHash (FIoHash)
        r.i32()  # TotalHeaderSize
    r.fstring()  # FolderName (PackageName)
    flags = r.i32() & 0xFFFFFFFF
    out = {'file': path}
    out['names'] = r.i32()
    out['nameOffset'] = r.i32()
    if ue5 >= UE5_ADD_SOFTOBJECTPATH_LIST:
        r.skip(8)
    if ue4 >= UE4_ADDED_PACKAGE_SUMMARY_LOCALIZATION_ID and not flags & PKG_FILTER_EDITOR_ONLY:
        r.fstring()
    if ue4 >= UE4_SERIALIZE_TEXT_IN_PACKAGES:
        r.skip(8)
    out['exports'] = r.i32()
    out['exportOffset'] = r.i32()
    out['imports'] = r.i32()
    out['importOffset'] = r.i32()
    return out


for arg in sys.argv[1:]:
    p, _, release = arg.partition('=')
    with open(p, 'rb') as f:
        head = f.read(1 << 16)
    try:
        print(json.dumps(counts(p, head, release)))
    except Exception as e:  # noqa: BLE001 - the test reports the file and the reason
        print(json.dumps({'file': p, 'error': str(e)}))
