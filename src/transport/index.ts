export { TransportService, type TransportHandler, type SendOptions } from './transport-service.js';
export { HANDSHAKE_ACTION, registerHandshake, handshake, type HandshakeResponse } from './handshake.js';
