/** File names of a segment: `<segment name>.<extension>`, and `<name>_<gen>.liv` for deletes. */
import { DOC_VALUES_EXTENSION } from '../docvalues/doc-values-format.js';
import { NORMS_EXTENSION } from '../norms/norms-format.js';
import { DOC_EXTENSION, POS_EXTENSION } from '../postings/postings-format.js';
import { STORED_FIELDS_EXTENSION } from '../stored/stored-fields-format.js';
import { TERMS_EXTENSION } from '../terms/terms-format.js';
import { SEGMENT_INFO_EXTENSION } from './segment-info.js';

export const SegmentFileExtensions = {
  segmentInfo: SEGMENT_INFO_EXTENSION,
  terms: TERMS_EXTENSION,
  doc: DOC_EXTENSION,
  pos: POS_EXTENSION,
  norms: NORMS_EXTENSION,
  docValues: DOC_VALUES_EXTENSION,
  stored: STORED_FIELDS_EXTENSION,
} as const;

export function segmentFileName(segmentName: string, extension: string): string {
  return `${segmentName}.${extension}`;
}
