/** The document APIs: index/create, get/source, delete, update, mget and bulk. */
import type { Route } from '../rest.js';
import { bulkRoutes } from './bulk-action.js';
import { deleteRoutes } from './delete-action.js';
import { getRoutes } from './get-action.js';
import { indexRoutes } from './index-action.js';
import { mgetRoutes } from './mget-action.js';
import { updateRoutes } from './update-action.js';

export const documentRoutes: Route[] = [...indexRoutes, ...getRoutes, ...deleteRoutes, ...updateRoutes, ...mgetRoutes, ...bulkRoutes];

export { executeWrites, resolveWriteIndex, type WriteOptions } from './write-executor.js';
export { readDocument, resolveSingleIndex } from './document-reader.js';
