import { UE3_FIRST_FILE_VERSION } from '../uasset/versions.js';

/**
 * Unreal Engine 1 and 2 package file versions (the low 16 bits of the header's version field;
 * the high 16 bits are the licensee version). Members name what each version changed.
 */
export const Ue12Version = {
  /** The oldest package version readers handle (UELib's LowestVersion; Unreal 1 at release). */
  OLDEST_SUPPORTED: 61,
  /** Names are stored with a compact-index length prefix instead of NUL-terminated only. */
  NAMES_LENGTH_PREFIXED: 64,
  /** The heritage table (count + offset) gives way to a package GUID and generations. */
  HERITAGE_TABLE_DEPRECATED: 68,
  /** Unreal Tournament (UT99). */
  UT99: 69,
  /** Unreal Tournament 2004. */
  UT2004: 128,
  /** UE3 begins: compact indices give way to int32 and the header changes shape. */
  UE3: UE3_FIRST_FILE_VERSION,
} as const;

/** "Unreal Engine 1" for versions up to 69, "Unreal Engine 2" from there to UE3. */
export function ue12Generation(version: number): 'Unreal Engine 1' | 'Unreal Engine 2' {
  return version <= Ue12Version.UT99 ? 'Unreal Engine 1' : 'Unreal Engine 2';
}
