/**
 * What Gannet reports about itself. The ES version number is configurable (`compatibility.version`) because
 * clients and tools gate features on it; see docs/decisions/0001-reported-version.md.
 */
export const GANNET_VERSION = '0.1.0';

export const DEFAULT_COMPATIBILITY_VERSION = '8.19.2';

export interface VersionInfo {
  number: string;
  buildFlavor: 'default';
  buildType: string;
  buildHash: string;
  buildDate: string;
  buildSnapshot: boolean;
  luceneVersion: string;
  minimumWireCompatibilityVersion: string;
  minimumIndexCompatibilityVersion: string;
}

/** Lucene version that ships with each ES major, so tools that parse `lucene_version` see a real one. */
function luceneVersionFor(esVersion: string): string {
  const major = Number(esVersion.split('.')[0]);
  if (major >= 9) return '10.2.2';
  if (major === 8) return '9.12.2';
  if (major === 7) return '8.11.3';
  return '7.7.3';
}

export function versionInfo(esVersion: string): VersionInfo {
  const major = Number(esVersion.split('.')[0]);
  return {
    number: esVersion,
    buildFlavor: 'default',
    buildType: 'tar',
    buildHash: `gannet-${GANNET_VERSION}`,
    buildDate: '2026-11-21T00:00:00.000Z',
    buildSnapshot: false,
    luceneVersion: luceneVersionFor(esVersion),
    minimumWireCompatibilityVersion: major >= 8 ? `${major - 1}.17.0` : '6.8.0',
    minimumIndexCompatibilityVersion: major >= 8 ? `${major - 1}.0.0` : '6.0.0-beta1',
  };
}
