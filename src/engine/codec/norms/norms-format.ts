/**
 * Norms file (`<segment>.nvd`): one byte per document for each field that has norms.
 *
 *   Body = FieldData* Toc TocPointer
 *   FieldData = the maxDoc norm bytes of a field (absent when every document has the same byte)
 *   Toc = FieldCount(vInt) { Name(string) Mode(byte) [Constant(byte) | Offset(u64)] }*
 *
 * Mode 0 (constant) costs nothing for fields where all lengths quantize to the same byte, e.g. a field
 * every document fills with one token. A byte of 0 means the document has no tokens in the field.
 */
export const NORMS_CODEC = 'GannetNorms';
export const NORMS_VERSION_START = 1;
export const NORMS_VERSION_CURRENT = NORMS_VERSION_START;
export const NORMS_EXTENSION = 'nvd';

export const NORMS_MODE_CONSTANT = 0;
export const NORMS_MODE_BYTES = 1;
