/** One place to read a node's OS, process and file-system figures. */
import { OsProbe, type OsStats } from './os-probe.js';
import { ProcessProbe, type ProcessStats } from './process-probe.js';
import { probeFileSystem, type FsStats } from './fs-probe.js';

export interface NodeFigures {
  os: OsStats;
  process: ProcessStats;
  fs: FsStats;
}

export class NodeMonitor {
  private readonly osProbe = new OsProbe();
  private readonly processProbe = new ProcessProbe();

  constructor(private readonly dataPath: string) {}

  os(): OsStats {
    return this.osProbe.stats();
  }

  process(): ProcessStats {
    return this.processProbe.stats();
  }

  fs(): Promise<FsStats> {
    return probeFileSystem(this.dataPath);
  }

  async figures(): Promise<NodeFigures> {
    return { os: this.os(), process: this.process(), fs: await this.fs() };
  }
}
