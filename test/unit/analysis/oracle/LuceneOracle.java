// Differential-test oracle: runs real Lucene analysis over input lines and prints what Lucene produced,
// one JSON line per input line. Used only to (re)generate fixtures under test/unit/analysis/fixtures/;
// the unit tests never need Java. See README.md beside this file for how to run it.
//
// Input: one text per line, JSON-string-escaped (so any UTF-16 sequence, even a lone surrogate, survives).
// Output: per line a JSON array of [term, start, end, type, positionIncrement] tuples; for mode "porter",
// each input line stemmed whole (KeywordTokenizer + PorterStemFilter).

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.core.LetterTokenizer;
import org.apache.lucene.analysis.core.SimpleAnalyzer;
import org.apache.lucene.analysis.core.StopAnalyzer;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

public class LuceneOracle {
  public static void main(String[] args) throws Exception {
    String mode = args[0];
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    Analyzer analyzer = analyzer(mode);
    for (String line; (line = in.readLine()) != null; ) {
      out.println(analyze(analyzer, unescape(line)));
    }
    out.flush();
  }

  static Analyzer analyzer(String mode) {
    String[] parts = mode.split(":");
    switch (parts[0]) {
      case "standard-tokenizer":
        return new Analyzer() {
          @Override
          protected TokenStreamComponents createComponents(String field) {
            StandardTokenizer t = new StandardTokenizer();
            if (parts.length > 1) t.setMaxTokenLength(Integer.parseInt(parts[1]));
            return new TokenStreamComponents(t);
          }
        };
      case "standard":
        return new StandardAnalyzer(CharArraySet.EMPTY_SET);
      case "english":
        return new EnglishAnalyzer();
      case "simple":
        return new SimpleAnalyzer();
      case "stop":
        return new StopAnalyzer(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
      case "whitespace":
        return new WhitespaceAnalyzer();
      case "porter":
        // PorterStemmer itself is package-private: stem each whole line through the filter instead.
        return new Analyzer() {
          @Override
          protected TokenStreamComponents createComponents(String field) {
            Tokenizer t = new KeywordTokenizer();
            return new TokenStreamComponents(t, new PorterStemFilter(t));
          }
        };
      case "keyword":
        return new KeywordAnalyzer();
      case "letter":
        return new Analyzer() {
          @Override
          protected TokenStreamComponents createComponents(String field) {
            return new TokenStreamComponents(new LetterTokenizer());
          }
        };
      case "whitespace-lowercase":
        return new Analyzer() {
          @Override
          protected TokenStreamComponents createComponents(String field) {
            Tokenizer t = new WhitespaceTokenizer();
            return new TokenStreamComponents(t, new LowerCaseFilter(t));
          }
        };
      case "whitespace-asciifolding":
        return new Analyzer() {
          @Override
          protected TokenStreamComponents createComponents(String field) {
            Tokenizer t = new WhitespaceTokenizer();
            return new TokenStreamComponents(t, new ASCIIFoldingFilter(t, parts.length > 1));
          }
        };
      case "whitespace-possessive":
        return new Analyzer() {
          @Override
          protected TokenStreamComponents createComponents(String field) {
            Tokenizer t = new WhitespaceTokenizer();
            return new TokenStreamComponents(t, new EnglishPossessiveFilter(t));
          }
        };
      case "whitespace-stop":
        return new Analyzer() {
          @Override
          protected TokenStreamComponents createComponents(String field) {
            Tokenizer t = new WhitespaceTokenizer();
            return new TokenStreamComponents(t, new StopFilter(t, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET));
          }
        };
      default:
        throw new IllegalArgumentException("unknown mode " + mode);
    }
  }

  static String analyze(Analyzer analyzer, String text) throws Exception {
    StringBuilder sb = new StringBuilder("[");
    try (TokenStream ts = analyzer.tokenStream("f", new StringReader(text))) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
      TypeAttribute type = ts.addAttribute(TypeAttribute.class);
      PositionIncrementAttribute posInc = ts.addAttribute(PositionIncrementAttribute.class);
      ts.reset();
      boolean first = true;
      while (ts.incrementToken()) {
        if (!first) sb.append(',');
        first = false;
        sb.append('[').append(quote(term.toString())).append(',').append(offset.startOffset()).append(',')
            .append(offset.endOffset()).append(',').append(quote(type.type())).append(',')
            .append(posInc.getPositionIncrement()).append(']');
      }
      ts.end();
      sb.append(first ? "[" : ",[").append(offset.endOffset()).append(',').append(posInc.getPositionIncrement()).append(']');
    }
    return sb.append(']').toString();
  }

  static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') sb.append('\\').append(c);
      else if (c < 0x20 || c > 0x7e) sb.append(String.format("\\u%04x", (int) c));
      else sb.append(c);
    }
    return sb.append('"').toString();
  }

  static String unescape(String line) {
    // The input is a JSON string literal including the quotes.
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i < line.length() - 1; i++) {
      char c = line.charAt(i);
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char n = line.charAt(++i);
      switch (n) {
        case 'u':
          sb.append((char) Integer.parseInt(line.substring(i + 1, i + 5), 16));
          i += 4;
          break;
        case 'n': sb.append('\n'); break;
        case 'r': sb.append('\r'); break;
        case 't': sb.append('\t'); break;
        case 'b': sb.append('\b'); break;
        case 'f': sb.append('\f'); break;
        default: sb.append(n);
      }
    }
    return sb.toString();
  }
}
