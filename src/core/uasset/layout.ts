/**
 * The versions that decide how a package's header is laid out. A versioned package states them;
 * an unversioned (cooked) one does not, and the parser tries candidate layouts (see detect-layout.ts).
 */
export interface PackageLayout {
  legacyFileVersion: number;
  /** The UE4 object version the header is read with (214..522). */
  ue4: number;
  /** The UE5 object version the header is read with (0 for UE4 packages). */
  ue5: number;
  /** Imports carry a PackageName even in cooked packages (UE5.8). */
  importPackageNameAlways: boolean;
}

/** Versions assumed for an unversioned package: a candidate layout or the caller's engine. */
export interface AssumedVersions {
  ue4: number;
  ue5: number;
  importPackageNameAlways: boolean;
  /** The engine releases this layout stands for ("5.6", "5.7"). */
  engines: string[];
}
