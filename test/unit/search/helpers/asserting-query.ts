/**
 * Test-only wrappers that check the scorer contract on every call (Lucene's AssertingQuery, AssertingWeight
 * and AssertingScorer): doc ids start at -1 and only move forward; advance() targets lie beyond the current
 * doc and land at or after them; scores are finite, non-negative, and never above the block maximum the
 * scorer itself promises for the current doc (advanceShallow + getMaxScore); explain() of a collected doc
 * matches and equals its score.
 */
import assert from 'node:assert/strict';
import {
  NO_MORE_DOCS,
  Query,
  Scorer,
  Weight,
  type Explanation,
  type IndexSearcher,
  type LeafContext,
  type ScoreMode,
} from '../../../../src/search/index.js';

export class AssertingScorer extends Scorer {
  private doc = -1;
  /** Scores checked, for tests that want to know the wrapper was exercised. */
  static checks = 0;

  constructor(private readonly inner: Scorer) {
    super();
    assert.equal(inner.docID(), -1, 'a new scorer must be unpositioned');
  }

  docID(): number {
    const doc = this.inner.docID();
    assert.equal(doc, this.doc, 'docID() changed without nextDoc/advance');
    return doc;
  }

  nextDoc(): number {
    assert.notEqual(this.doc, NO_MORE_DOCS, 'nextDoc() after exhaustion');
    return this.moved(this.inner.nextDoc(), this.doc + 1);
  }

  advance(target: number): number {
    assert.ok(target > this.doc, `advance(${target}) must target beyond the current doc ${this.doc}`);
    return this.moved(this.inner.advance(target), target);
  }

  private moved(doc: number, target: number): number {
    assert.ok(Number.isInteger(doc), `doc id must be an integer, got ${doc}`);
    assert.ok(doc >= target, `moved to ${doc}, before the target ${target}`);
    assert.ok(doc > this.doc, `doc ids must increase: ${doc} after ${this.doc}`);
    assert.equal(this.inner.docID(), doc, 'docID() must report the doc just returned');
    this.doc = doc;
    return doc;
  }

  cost(): number {
    return this.inner.cost();
  }

  score(): number {
    assert.ok(this.doc >= 0 && this.doc !== NO_MORE_DOCS, `score() on doc ${this.doc}`);
    const score = this.inner.score();
    assert.ok(Number.isFinite(score) && score >= 0, `score must be finite and non-negative, got ${score}`);
    assert.equal(Math.fround(score), score, `score must be a float, got ${score}`);
    const upTo = this.inner.advanceShallow(this.doc);
    if (upTo !== NO_MORE_DOCS || Number.isFinite(this.inner.getMaxScore(upTo))) {
      assert.ok(upTo >= this.doc, `advanceShallow(${this.doc}) returned ${upTo}`);
      const max = this.inner.getMaxScore(upTo);
      assert.ok(score <= max * (1 + 1e-6), `score ${score} of doc ${this.doc} exceeds the promised block max ${max}`);
    }
    AssertingScorer.checks++;
    return score;
  }

  override advanceShallow(target: number): number {
    assert.ok(target >= Math.max(0, this.doc), `advanceShallow(${target}) behind doc ${this.doc}`);
    return this.inner.advanceShallow(target);
  }

  override getMaxScore(upTo: number): number {
    return this.inner.getMaxScore(upTo);
  }

  override setMinCompetitiveScore(minScore: number): void {
    assert.ok(minScore >= 0 && Number.isFinite(minScore), `bad min competitive score ${minScore}`);
    this.inner.setMinCompetitiveScore(minScore);
  }
}

class AssertingWeight extends Weight {
  constructor(
    query: AssertingQuery,
    private readonly inner: Weight,
  ) {
    super(query);
  }

  scorer(leaf: LeafContext): Scorer | null {
    const scorer = this.inner.scorer(leaf);
    return scorer === null ? null : new AssertingScorer(scorer);
  }

  explain(leaf: LeafContext, doc: number): Explanation {
    return this.inner.explain(leaf, doc);
  }

  override count(leaf: LeafContext): number {
    return this.inner.count(leaf);
  }
}

export class AssertingQuery extends Query {
  constructor(readonly inner: Query) {
    super();
  }

  override rewrite(searcher: IndexSearcher): Query {
    const rewritten = this.inner.rewrite(searcher);
    return rewritten === this.inner ? this : new AssertingQuery(rewritten);
  }

  createWeight(searcher: IndexSearcher, scoreMode: ScoreMode, boost: number): Weight {
    return new AssertingWeight(this, searcher.createWeight(this.inner, scoreMode, boost));
  }

  toString(field?: string): string {
    return this.inner.toString(field);
  }

  equals(other: Query): boolean {
    return other instanceof AssertingQuery && other.inner.equals(this.inner);
  }
}
