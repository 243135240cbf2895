/** Docs present in every one of several postings lists (the approximation of a phrase: all its terms). */
import type { PostingsEnum } from '../../../engine/codec/index.js';
import { NO_MORE_DOCS, type DocIdSetIterator } from '../../core/doc-id-set-iterator.js';

export class PostingsConjunction implements DocIdSetIterator {
  private readonly lead: PostingsEnum;
  private readonly others: readonly PostingsEnum[];
  private doc = -1;

  constructor(postings: readonly PostingsEnum[]) {
    const byCost = [...postings].sort((a, b) => a.cost() - b.cost());
    this.lead = byCost[0]!;
    this.others = byCost.slice(1);
  }

  docID(): number {
    return this.doc;
  }

  cost(): number {
    return this.lead.cost();
  }

  nextDoc(): number {
    // The lead sits on this.doc (it only moves past it when exhausted): step it rather than advance.
    return this.align(this.doc === NO_MORE_DOCS ? NO_MORE_DOCS : this.lead.nextDoc());
  }

  advance(target: number): number {
    const lead = this.lead;
    return this.align(lead.docID() < target ? lead.advance(target) : lead.docID());
  }

  /** From a doc of the lead, the first doc on or after it that every other list has. */
  private align(leadDoc: number): number {
    const others = this.others;
    let doc = leadDoc;
    outer: while (doc !== NO_MORE_DOCS) {
      for (let i = 0; i < others.length; i++) {
        const other = others[i]!;
        let otherDoc = other.docID();
        if (otherDoc < doc) otherDoc = other.advance(doc);
        if (otherDoc > doc) {
          doc = this.lead.advance(otherDoc);
          continue outer;
        }
      }
      break;
    }
    return (this.doc = doc);
  }
}
