/** Runs one document write through the bulk machinery and answers as ES's single-document APIs do. */
import { errors } from '../../common/errors.js';
import { json, type ActionContext, type RestResponse } from '../rest.js';
import { successStatus, type DocWriteItem } from './doc-write.js';
import { docWriteBody, locationOf } from './write-response.js';
import { executeWrites, type WriteOptions } from './write-executor.js';
import { validationProblems } from './write-params.js';

export async function singleWrite(item: DocWriteItem, options: WriteOptions, context: ActionContext, extraProblems: string[] = []): Promise<RestResponse> {
  const problems = [...validationProblems({ ...item, hasSource: item.source !== undefined }), ...extraProblems];
  if (problems.length > 0) throw errors.requestValidation(problems);
  const [outcome] = await executeWrites([item], options, context);
  if (outcome === undefined) throw new Error('write produced no outcome');
  if (outcome.kind === 'failure') throw outcome.error;
  const status = successStatus(outcome);
  return json(docWriteBody(outcome), status, status === 201 ? { Location: locationOf(outcome) } : undefined);
}
