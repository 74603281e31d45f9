/**
 * The expression tree of decoded Blueprint bytecode: one node per token, with its operands.
 * Offsets are in the engine's in-memory bytecode units (object and property pointers 8 bytes,
 * FNames 12), the units jump targets and the stored ScriptBytecodeSize count in.
 */
import type { OpName } from './tokens.js';

export interface Expr {
  op: OpName;
  /** In-memory offset of the token. */
  offset: number;
  /** Function, variable or property name; an object's path (null for none); a name constant. */
  ref?: string | null;
  /** A constant's value (numbers, strings, vectors as arrays). */
  value?: number | string | bigint | boolean | readonly number[];
  /** Jump target or skip offset (in-memory units). */
  target?: number;
  /** Operands in the order the token stores them. */
  args?: Expr[];
  /** Lists closed by an end token (call parameters, array elements, struct members). */
  list?: Expr[];
  /** EX_SwitchValue's cases. */
  cases?: { value: Expr; result: Expr; next: number }[];
}
