// Records what Lucene 8.7 returns for the queries of ../queries-oracle.test.ts on the small corpus
// (helpers/small-corpus.ts: StandardAnalyzer without stop words, one segment, LegacyBM25Similarity as ES).
// Run: javac -cp "$CP" -d /tmp/qoracle QueriesOracle.java && java -cp "/tmp/qoracle:$CP" QueriesOracle
// with CP=/usr/share/java/lucene-core-8.7.0.jar:/usr/share/java/lucene-analyzers-common-8.7.0.jar:
//         /usr/share/java/lucene-misc-8.7.0.jar:/usr/share/java/lucene-queries-8.7.0.jar
import java.util.*;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.*;
import org.apache.lucene.index.*;
import org.apache.lucene.queries.function.FunctionScoreQuery;
import org.apache.lucene.search.*;
import org.apache.lucene.search.similarity.LegacyBM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.automaton.RegExp;

public class QueriesOracle {
  static final String[] BODIES = {
    "the quick brown fox jumps over the lazy dog", "quick quick brown dogs", "a lazy fox sleeps",
    "brown fox brown fox brown fox", "the dog and the fox and the quick cat", "", "fox",
    "jumps over quick fox lazy", "quack quick quirk quick", "brown dog brown fox brown" };
  static final String[][] TAGS = { {"a"}, {"b"}, {"a", "b"}, {}, {"c"}, {"a"}, {}, {"b"}, {"a"}, {} };

  static Term t(String text) { return new Term("body", text); }

  public static void main(String[] args) throws Exception {
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig(new StandardAnalyzer(CharArraySet.EMPTY_SET));
    config.setSimilarity(new LegacyBM25Similarity());
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (int i = 0; i < BODIES.length; i++) {
        Document doc = new Document();
        doc.add(new StringField("_id", String.valueOf(i), Field.Store.YES));
        doc.add(new TextField("body", BODIES[i], Field.Store.NO));
        for (String tag : TAGS[i]) doc.add(new StringField("tag", tag, Field.Store.NO));
        writer.addDocument(doc);
      }
      writer.forceMerge(1);
    }
    IndexSearcher searcher = new IndexSearcher(DirectoryReader.open(dir));
    searcher.setSimilarity(new LegacyBM25Similarity());
    Map<String, Query> queries = new LinkedHashMap<>();
    queries.put("range_brown_fox", new TermRangeQuery("body", new BytesRef("brown"), new BytesRef("fox"), true, true));
    queries.put("range_excl_brown_fox", new TermRangeQuery("body", new BytesRef("brown"), new BytesRef("fox"), false, false));
    queries.put("range_open_dog", new TermRangeQuery("body", null, new BytesRef("dog"), true, false));
    queries.put("range_tag_b_open", new TermRangeQuery("tag", new BytesRef("b"), null, true, true));
    queries.put("regexp_qu_ai_ck", new RegexpQuery(t("qu[ai]ck")));
    queries.put("regexp_complement", new RegexpQuery(t("~(f.*|d.*|q.*|b.*)")));
    queries.put("regexp_intersection", new RegexpQuery(t(".*o.*&.{3}")));
    queries.put("regexp_anystring", new RegexpQuery(t("@k")));
    queries.put("regexp_none_literal", new RegexpQuery(t("@k"), RegExp.NONE));
    queries.put("regexp_interval_tag", new RegexpQuery(new Term("tag", "<1-10>|a")));
    queries.put("boosting_fox_not_dog", FunctionScoreQuery.boostByQuery(new TermQuery(t("fox")), new TermQuery(t("dog")), 0.2f));
    queries.put("boosting_boosted", new BoostQuery(FunctionScoreQuery.boostByQuery(new TermQuery(t("quick")), new TermQuery(t("brown")), 0.5f), 3f));
    queries.put("multiphrase_quick_qu", new MultiPhraseQuery.Builder().add(t("quick")).add(new Term[] { t("quack"), t("quick"), t("quirk") }).build());
    queries.put("multiphrase_brown_f", new MultiPhraseQuery.Builder().add(t("brown")).add(new Term[] { t("fox") }).build());
    queries.put("multiphrase_sloppy_fox_qu", new MultiPhraseQuery.Builder().add(t("fox")).add(new Term[] { t("quack"), t("quick"), t("quirk") }).setSlop(2).build());
    queries.put("multiphrase_sloppy_overlap", new MultiPhraseQuery.Builder().add(t("quick")).add(new Term[] { t("quack"), t("quick"), t("quirk") }).setSlop(2).build());
    queries.put("multiphrase_brown_do", new MultiPhraseQuery.Builder().add(t("brown")).add(new Term[] { t("dog"), t("dogs") }).build());
    for (Map.Entry<String, Query> entry : queries.entrySet()) {
      TopDocs top = searcher.search(entry.getValue(), 20);
      StringBuilder line = new StringBuilder("'" + entry.getKey() + " total=" + top.totalHits.value);
      for (ScoreDoc hit : top.scoreDocs) line.append(' ').append(hit.doc).append(':').append(hit.score);
      System.out.println(line + "',");
      if (top.scoreDocs.length > 0) {
        System.out.println("EXPLAIN " + entry.getKey() + "\n" + searcher.explain(entry.getValue(), top.scoreDocs[0].doc));
        int last = top.scoreDocs[top.scoreDocs.length - 1].doc;
        System.out.println("EXPLAIN_LAST " + entry.getKey() + "\n" + searcher.explain(entry.getValue(), last));
      }
    }
  }
}
