/**
 * Test-only wrapper that checks the PostingsEnum contract on every call (Lucene's AssertingPostingsEnum):
 * doc ids start at -1, only move forward, end at NO_MORE_DOCS and stay there; advance targets are beyond the
 * current doc; freq() and positions are only read on a current doc, positions at most freq() times and
 * never decreasing.
 */
import assert from 'node:assert/strict';
import type { PostingsEnum } from '../../../../src/engine/codec/postings/postings-enum.js';
import { NO_MORE_DOCS } from '../../../../src/engine/codec/postings/postings-format.js';
import type { TermImpacts } from '../../../../src/engine/codec/postings/impacts.js';

export class AssertingPostingsEnum implements PostingsEnum {
  private doc = -1;
  private positionsLeft = 0;
  private lastPosition = -1;
  private lastShallowTarget = -1;

  constructor(
    private readonly inner: PostingsEnum,
    private readonly withPositions: boolean,
  ) {
    assert.equal(inner.docID(), -1, 'a fresh enum must be unpositioned');
  }

  docID(): number {
    const doc = this.inner.docID();
    assert.equal(doc, this.doc, 'docID() changed without a move');
    return doc;
  }

  nextDoc(): number {
    assert.notEqual(this.doc, NO_MORE_DOCS, 'nextDoc() after exhaustion');
    return this.moved(this.inner.nextDoc());
  }

  advance(target: number): number {
    assert.ok(target > this.doc, `advance(${target}) must target beyond the current doc ${this.doc}`);
    const doc = this.moved(this.inner.advance(target));
    assert.ok(doc >= target, `advance(${target}) landed on ${doc}`);
    return doc;
  }

  private moved(doc: number): number {
    assert.ok(Number.isInteger(doc), `doc id must be an integer, got ${doc}`);
    assert.ok(doc > this.doc, `doc ids must increase: ${doc} after ${this.doc}`);
    assert.ok(doc >= 0 && doc <= NO_MORE_DOCS, `doc id out of range: ${doc}`);
    assert.equal(this.inner.docID(), doc, 'docID() must report the doc just returned');
    this.doc = doc;
    if (doc !== NO_MORE_DOCS) {
      const freq = this.inner.freq();
      assert.ok(Number.isInteger(freq) && freq >= 1, `freq must be a positive integer, got ${freq}`);
      this.positionsLeft = this.withPositions ? freq : 0;
      this.lastPosition = -1;
    }
    return doc;
  }

  freq(): number {
    assert.ok(this.doc >= 0 && this.doc !== NO_MORE_DOCS, 'freq() needs a current doc');
    return this.inner.freq();
  }

  nextPosition(): number {
    assert.ok(this.doc >= 0 && this.doc !== NO_MORE_DOCS, 'nextPosition() needs a current doc');
    assert.ok(this.positionsLeft > 0, 'nextPosition() called more than freq() times');
    const position = this.inner.nextPosition();
    assert.ok(Number.isInteger(position) && position >= 0, `position must be a non-negative integer, got ${position}`);
    assert.ok(position >= this.lastPosition, `positions must not decrease: ${position} after ${this.lastPosition}`);
    this.positionsLeft--;
    this.lastPosition = position;
    return position;
  }

  cost(): number {
    return this.inner.cost();
  }

  advanceShallow(target: number): number {
    assert.ok(target >= this.lastShallowTarget, 'advanceShallow targets must not go backwards');
    this.lastShallowTarget = target;
    const upTo = this.inner.advanceShallow(target);
    assert.ok(upTo >= target, `advanceShallow(${target}) returned docIdUpTo ${upTo} < target`);
    return upTo;
  }

  shallowBlock(): number {
    return this.inner.shallowBlock();
  }

  impacts(): TermImpacts {
    return this.inner.impacts();
  }
}
