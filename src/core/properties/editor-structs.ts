/**
 * Native structs of editor-only data (Blueprint graphs, imported asset info), found in uncooked
 * packages.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import { UE4Version, UE5Version } from '../uasset/versions.js';
import type { PropertyReader } from './reader.js';
import type { PropertyValue } from './types.js';
import { CustomVersionKey, customVersionAtLeast, hasPinNamesAsFName } from './versions.js';

const FrameworkEdGraphPinContainerType = 26;
const BlueprintsAdvancedContainerSupport = 6;
const ReleasePinTypeIncludesUObjectWrapperFlag = 32;
const UE5ReleaseSerializeFloatPinDefaultValuesAsSinglePrecision = 36;

/** EPinContainerType. */
const CONTAINER_TYPES = ['None', 'Array', 'Set', 'Map'];

function category(pr: PropertyReader, r: BinaryReader): string {
  return hasPinNamesAsFName(pr.ctx.versions) ? pr.name(r) : r.fstring();
}

/** FEdGraphTerminalType: the value type of a map pin. */
function terminalType(pr: PropertyReader, r: BinaryReader): PropertyValue {
  const v = pr.ctx.versions;
  const out: Record<string, PropertyValue> = {
    TerminalCategory: category(pr, r), TerminalSubCategory: category(pr, r), TerminalSubCategoryObject: pr.object(r),
    bTerminalIsConst: r.bool32(), bTerminalIsWeakPointer: r.bool32(),
  };
  if (customVersionAtLeast(v, CustomVersionKey.Release, ReleasePinTypeIncludesUObjectWrapperFlag)) out.bTerminalIsUObjectWrapper = r.bool32();
  return out;
}

/** FEdGraphPinType (EdGraphPin.cpp, FEdGraphPinType::Serialize). */
export function edGraphPinType(pr: PropertyReader, r: BinaryReader): PropertyValue {
  const v = pr.ctx.versions;
  if (v.ue4 < UE4Version.EDGRAPHPINTYPE_SERIALIZATION) return pr.taggedProperties(r, true);
  const out: Record<string, PropertyValue> = { PinCategory: category(pr, r), PinSubCategory: category(pr, r), PinSubCategoryObject: pr.object(r) };
  if (customVersionAtLeast(v, CustomVersionKey.Framework, FrameworkEdGraphPinContainerType)) {
    const container = r.u8();
    out.ContainerType = CONTAINER_TYPES[container] ?? container;
    if (container === 3) out.PinValueType = terminalType(pr, r);
  } else {
    let isMap = false, isSet = false;
    if (customVersionAtLeast(v, CustomVersionKey.Blueprints, BlueprintsAdvancedContainerSupport)) {
      isMap = r.bool32();
      if (isMap) out.PinValueType = terminalType(pr, r);
      isSet = r.bool32();
    }
    const isArray = r.bool32();
    out.ContainerType = isArray ? 'Array' : isSet ? 'Set' : isMap ? 'Map' : 'None';
  }
  out.bIsReference = r.bool32();
  out.bIsWeakPointer = r.bool32();
  if (v.ue4 >= UE4Version.MEMBERREFERENCE_IN_PINTYPE) {
    out.PinSubCategoryMemberReference = { MemberParent: pr.object(r), MemberName: pr.name(r), MemberGuid: r.guid() };
  }
  if (v.ue4 >= UE4Version.SERIALIZE_PINTYPE_CONST) out.bIsConst = r.bool32();
  if (customVersionAtLeast(v, CustomVersionKey.Release, ReleasePinTypeIncludesUObjectWrapperFlag)) out.bIsUObjectWrapper = r.bool32();
  if (!v.cooked && customVersionAtLeast(v, CustomVersionKey.UE5ReleaseStream, UE5ReleaseSerializeFloatPinDefaultValuesAsSinglePrecision, v.ue5 >= UE5Version.LARGE_WORLD_COORDINATES)) {
    out.bSerializeAsSinglePrecisionFloat = r.bool32();
  }
  return out;
}
