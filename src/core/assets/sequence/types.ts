/**
 * A Level Sequence (cinematic) as PakScope reads it: its MovieScene's timing, bindings, tracks,
 * sections and the keys of their channels. This is also the JSON `pakscope sequence --json`
 * prints and `--format convert` writes.
 */

/** FFrameRate: numerator / denominator per second. */
export interface FrameRate {
  numerator: number;
  denominator: number;
}

/**
 * A moment of the sequence. UE4.20+ sequences count ticks of the tick resolution (`tick`);
 * earlier ones store seconds (tick null). `frame` is the display-rate frame (fractional where the
 * tick falls between frames), null when the sequence has no display rate.
 */
export interface SequenceTime {
  tick: number | null;
  seconds: number;
  frame: number | null;
}

/** A range of the sequence: its first moment (inclusive) and the first past it (exclusive); null for an open bound. */
export interface SequenceRange {
  start: SequenceTime | null;
  end: SequenceTime | null;
}

export type ChannelType = 'float' | 'double' | 'bool' | 'byte' | 'integer' | 'event' | 'name' | 'string' | 'object' | 'curve';

export type KeyValue = number | boolean | string | null;

export interface ChannelKey {
  time: SequenceTime;
  value: KeyValue;
  /** Float and double channels: RCIM_Linear, RCIM_Constant, RCIM_Cubic. */
  interp?: string;
}

export interface SequenceChannel {
  /** Where it is in the section: "FixtureScalar", "FixtureColor.RedCurve", "Translation[0]". */
  name: string;
  type: ChannelType;
  keys: ChannelKey[];
  /** The value before the first key and with no keys, when the channel has one. */
  default?: KeyValue;
  /** Pre- and post-infinity extrapolation (float and double channels). */
  extrapolation?: { pre: string; post: string };
}

export interface SequenceSection {
  name: string;
  /** Object path in the package. */
  path: string;
  class: string;
  range: SequenceRange;
  /** RowIndex: the row of the track it is drawn on. */
  row: number;
  /** bIsActive (false: muted). */
  active: boolean;
  channels: SequenceChannel[];
  /** Subsequence and shot sections: the sequence it plays (object path), null when unset. */
  subSequence?: string | null;
  /** Subsequence sections' Parameters: the play rate, the offset into the subsequence (ticks) and the hierarchical bias. */
  timeScale?: number;
  startFrameOffset?: number;
  hierarchicalBias?: number;
  /** Camera cut sections: the binding whose camera it cuts to (GUID) and its name when the sequence binds it. */
  cameraBinding?: string;
  cameraName?: string;
  /** Parameter sections of material parameter collection and material tracks: the parameters it animates. */
  parameters?: string[];
}

export interface SequenceTrack {
  name: string;
  path: string;
  class: string;
  /** What the editor would show: DisplayName where the cook kept it, else the animated property, else the class without "MovieScene"/"Track". */
  displayName: string;
  /** The property a property track animates (PropertyBinding). */
  property?: string;
  /** Material parameter collection tracks: the collection (object path). */
  mpc?: string | null;
  sections: SequenceSection[];
}

export interface SequenceBinding {
  guid: string;
  name: string;
  kind: 'possessable' | 'spawnable' | 'binding';
  /** A possessable's PossessedObjectClass, or a spawnable's template's class. */
  class?: string | null;
  /** A spawnable's ObjectTemplate (object path in the package). */
  template?: string | null;
  /** The binding it hangs under (a component under its actor). */
  parent?: string;
  /** The level objects a possessable is bound to (the sequence's binding references). */
  boundObjects?: string[];
  tracks: SequenceTrack[];
}

export interface SequenceFolder {
  name: string;
  folders: SequenceFolder[];
  /** Track names and binding GUIDs it holds. */
  tracks: string[];
  bindings: string[];
}

export interface SequenceCounts {
  bindings: number;
  tracks: number;
  sections: number;
  channels: number;
  keys: number;
}

export interface SequenceAsset {
  /** The package ("/Game/Cinematics/Intro"). */
  package: string;
  /** The sequence export's name and class (LevelSequence, TemplateSequence, ...). */
  sequence: string;
  class: string;
  /** The MovieScene the sequence names (object path). */
  movieScene: string;
  /** TickResolution (ticks per second): what section ranges and key times count; null before UE4.20 (seconds). */
  tickResolution: FrameRate | null;
  /** DisplayRate: the frames the editor shows; before UE4.20 1 / FixedFrameInterval where set. */
  displayRate: FrameRate | null;
  playbackRange: SequenceRange;
  /** Tracks of no binding (UE5.2+ Tracks, earlier MasterTracks), the camera cut track first. */
  tracks: SequenceTrack[];
  bindings: SequenceBinding[];
  folders: SequenceFolder[];
  /** The sequences its subsequence and shot sections play (object paths, each once). */
  subSequences: string[];
  counts: SequenceCounts;
  /** What could not be read (a missing export, a property of the wrong type). */
  notes: string[];
}
