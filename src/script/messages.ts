/**
 * The painless causes a script error carries (the `caused_by` of a script_exception), worded as painless words
 * them where Gannet implements the same check, and naming the construct where Gannet's subset stops short.
 * The script_exception itself comes from `scriptErrors` in the one error table.
 */
import { EsError, type EsErrorType } from '../common/errors.js';

/** A failure at a source offset; turned into a script_exception by script-error.ts. */
export class ScriptFailure extends Error {
  constructor(
    readonly phase: 'compile error' | 'runtime error',
    readonly offset: number,
    override readonly cause: EsError,
  ) {
    super(cause.message);
  }
}

const cause = (type: EsErrorType, reason: string): EsError => new EsError(type, reason);

export const compileMessages = {
  unsupported: (construct: string, hint = '') => cause('illegal_argument_exception', `unsupported painless construct [${construct}]${hint}`),
  unknownMethod: (name: string, arity: number) =>
    cause('illegal_argument_exception', `unknown method [${name}/${arity}]: this painless subset supports only the whitelisted Map, List and String methods`),
  unresolvedSymbol: (name: string) => cause('illegal_argument_exception', `cannot resolve symbol [${name}]`),
  alreadyDefined: (name: string) => cause('illegal_argument_exception', `variable [${name}] is already defined`),
  invalidTokens: (near: string) => cause('illegal_argument_exception', `invalid sequence of tokens near ['${near}'].`),
  unexpectedEnd: () => cause('illegal_argument_exception', 'unexpected end of script.'),
  unexpectedCharacter: (text: string) => cause('illegal_argument_exception', `unexpected character [${text}].`),
  invalidConstant: (kind: string, text: string) => cause('illegal_argument_exception', `Invalid ${kind} constant [${text}].`),
  notAStatement: () => cause('illegal_argument_exception', 'not a statement: result not used from expression'),
  notAssignable: () => cause('illegal_argument_exception', 'invalid assignment: cannot assign a value to this expression'),
  readOnly: (name: string) => cause('illegal_argument_exception', `variable [${name}] is read-only`),
  tooDeep: (max: number) => cause('illegal_argument_exception', `script is nested too deeply: more than [${max}] levels`),
  loopOutside: (keyword: string) => cause('illegal_argument_exception', `[${keyword}] outside of a loop`),
  cannotCast: (from: string, to: string) => cause('class_cast_exception', `Cannot cast from [${from}] to [${to}].`),
  nullToPrimitive: (type: string) => cause('illegal_argument_exception', `Cannot cast null to a primitive type [${type}].`),
  cannotApply: (op: string, left: string, right: string) => cause('class_cast_exception', `Cannot apply [${op}] operation to types [${left}] and [${right}].`),
  typeAsName: (name: string) => cause('illegal_argument_exception', `invalid declaration: [${name}] is a type and cannot be used as a variable name`),
};

export const runtimeMessages = {
  nullPointer: (what: string) => cause('null_pointer_exception', what),
  classCast: (reason: string) => cause('class_cast_exception', reason),
  cannotApply: (op: string, left: string, right: string) =>
    cause('class_cast_exception', `Cannot apply [${op}] operation to types [${left}] and [${right}].`),
  cannotApplyUnary: (op: string, type: string) => cause('class_cast_exception', `Cannot apply [${op}] operation to type [${type}].`),
  divideByZero: () => cause('arithmetic_exception', '/ by zero'),
  indexOutOfBounds: (index: number, length: number) => cause('index_out_of_bounds_exception', `Index ${index} out of bounds for length ${length}`),
  dynamicMethod: (className: string, name: string, arity: number) =>
    cause('illegal_argument_exception', `dynamic method [${className}, ${name}/${arity}] not found`),
  dynamicField: (className: string, name: string) => cause('illegal_argument_exception', `dynamic getter [${className}, ${name}] not found`),
  unmodifiable: () => cause('unsupported_operation_exception', 'params are read-only'),
  loopLimit: () => cause('painless_error', 'The maximum number of statements that can be executed in a loop has been reached.'),
  stringTooLong: (max: number) => cause('illegal_argument_exception', `string would be longer than [${max}] characters`),
  stringIndex: (reason: string) => cause('string_index_out_of_bounds_exception', reason),
  sourceTooDeep: (max: number) =>
    cause('illegal_argument_exception', `[ctx._source] is nested more than [${max}] levels deep (or contains itself) and cannot be stored`),
  sourceTooLarge: (max: number) => cause('illegal_argument_exception', `[ctx._source] holds more than [${max}] values and cannot be stored`),
  comparisonTooLarge: (max: number) => cause('illegal_argument_exception', `comparing these values would visit more than [${max}] values`),
  metadata: (reason: string) => cause('illegal_argument_exception', reason),
  illegalArgument: (reason: string) => cause('illegal_argument_exception', reason),
  ctxRemove: (key: string) => cause('unsupported_operation_exception', `Cannot remove key ${key} from ctx`),
  notIterable: (className: string) => cause('illegal_argument_exception', `Cannot iterate over [${className}]`),
  notBoolean: (className: string) => cause('class_cast_exception', `Cannot cast [${className}] to [boolean].`),
};
