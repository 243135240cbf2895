export { TransportService, toWireError, fromWireError, type TransportHandler, type SendOptions, type TransportNode, type RequestContext, type LocalTransportIdentity } from './transport-service.js';
export { TrailingBytesBody, type WireError } from './frame.js';
export { HANDSHAKE_ACTION, TRANSPORT_VERSION, registerHandshake, handshake, type HandshakeResponse } from './handshake.js';
export { toColumns, column, isRecordColumns, type RecordColumns } from './record-columns.js';
