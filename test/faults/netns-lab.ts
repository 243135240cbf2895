/**
 * Real network partitions on one machine (reliability-security.md §8.4): each node runs in its own network
 * namespace, joined to a bridge in the host namespace by a veth pair; etcd and the test listen on the bridge's
 * address. Cutting a node off is taking its host-side veth down: its sockets stay open and its process runs,
 * but nothing reaches it and nothing it sends arrives (a blackhole, as ES's NetworkUnresponsive). Healing is
 * bringing the link back up.
 *
 * Needs root or CAP_NET_ADMIN. Names carry a random suffix so parallel runs on one host never collide, and
 * everything made is removed in `destroy()`.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

function ip(...args: string[]): void {
  const result = spawnSync('ip', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ip ${args.join(' ')}: ${(result.stderr || result.error?.message || '').trim()}`);
}

export class NetnsLab {
  private readonly made: Array<() => void> = [];

  private constructor(
    private readonly suffix: string,
    private readonly subnet: string,
    readonly size: number,
  ) {}

  /** Why this machine cannot run partitions, or undefined when it can. */
  static unavailableReason(): string | undefined {
    if (process.platform !== 'linux') return 'network namespaces need Linux';
    const probe = `gprobe${randomBytes(2).toString('hex')}`;
    const added = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
    if (added.error !== undefined) return `the ip command is missing (${added.error.message}); install iproute2`;
    if (added.status !== 0) return `ip netns add failed (needs root or CAP_NET_ADMIN): ${added.stderr.trim()}`;
    spawnSync('ip', ['netns', 'del', probe]);
    return undefined;
  }

  /** A bridge and `size` namespaces, each with an address on the bridge's /24. */
  static create(size: number): NetnsLab {
    const random = randomBytes(3);
    const lab = new NetnsLab(random.toString('hex').slice(0, 4), `10.${200 + (random[2]! % 50)}.${random[1]! % 250}`, size);
    try {
      lab.build();
    } catch (err) {
      lab.destroy();
      throw err;
    }
    return lab;
  }

  get bridgeAddress(): string {
    return `${this.subnet}.254`;
  }

  nodeAddress(slot: number): string {
    return `${this.subnet}.${slot + 1}`;
  }

  /** The command prefix that runs a process inside the slot's namespace (ip execs it: the pid stays). */
  wrapper(slot: number): string[] {
    return ['ip', 'netns', 'exec', this.namespace(slot)];
  }

  /** Cuts the slot off from everything (etcd, the other nodes, the test's clients). */
  partition(slot: number): void {
    ip('link', 'set', this.hostVeth(slot), 'down');
  }

  heal(slot: number): void {
    ip('link', 'set', this.hostVeth(slot), 'up');
  }

  destroy(): void {
    for (const undo of this.made.splice(0).reverse()) {
      try {
        undo();
      } catch {
        // already gone
      }
    }
  }

  private get bridge(): string {
    return `gbr${this.suffix}`;
  }

  private namespace(slot: number): string {
    return `gn${this.suffix}-${slot}`;
  }

  private hostVeth(slot: number): string {
    return `gv${this.suffix}h${slot}`;
  }

  private build(): void {
    ip('link', 'add', this.bridge, 'type', 'bridge');
    this.made.push(() => ip('link', 'del', this.bridge));
    ip('addr', 'add', `${this.bridgeAddress}/24`, 'dev', this.bridge);
    ip('link', 'set', this.bridge, 'up');
    for (let slot = 0; slot < this.size; slot++) {
      const namespace = this.namespace(slot);
      const inner = `gv${this.suffix}n${slot}`;
      ip('netns', 'add', namespace);
      this.made.push(() => ip('netns', 'del', namespace));
      ip('link', 'add', this.hostVeth(slot), 'type', 'veth', 'peer', 'name', inner);
      this.made.push(() => ip('link', 'del', this.hostVeth(slot)));
      ip('link', 'set', inner, 'netns', namespace);
      ip('link', 'set', this.hostVeth(slot), 'master', this.bridge);
      ip('link', 'set', this.hostVeth(slot), 'up');
      ip('netns', 'exec', namespace, 'ip', 'addr', 'add', `${this.nodeAddress(slot)}/24`, 'dev', inner);
      ip('netns', 'exec', namespace, 'ip', 'link', 'set', inner, 'up');
      ip('netns', 'exec', namespace, 'ip', 'link', 'set', 'lo', 'up');
    }
  }
}
