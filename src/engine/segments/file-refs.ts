/**
 * Reference counts on index files (Lucene's IndexFileDeleter): the last commit point, the engine's current
 * segments and every open Searcher hold references to the files they need; a file whose count drops to
 * zero is deleted. Files being written (a flush or merge in progress) are not counted until they join the
 * segments, and are never deleted from here; leftovers of a crash are removed when the engine opens.
 */
export class FileRefs {
  private readonly counts = new Map<string, number>();

  constructor(private readonly deleteFile: (name: string) => void) {}

  incRef(files: Iterable<string>): void {
    for (const file of files) this.counts.set(file, (this.counts.get(file) ?? 0) + 1);
  }

  decRef(files: Iterable<string>): void {
    for (const file of files) {
      const count = this.counts.get(file);
      if (count === undefined) throw new Error(`file [${file}] released more often than acquired`);
      if (count > 1) {
        this.counts.set(file, count - 1);
      } else {
        this.counts.delete(file);
        this.deleteFile(file);
      }
    }
  }

  isReferenced(file: string): boolean {
    return this.counts.has(file);
  }

  referenced(): string[] {
    return [...this.counts.keys()];
  }
}
