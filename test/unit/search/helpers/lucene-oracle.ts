/**
 * What Lucene 8.7.0 returned for the oracle queries of helpers/small-corpus.ts on the same ten documents
 * (StandardAnalyzer without stop words, one segment, IndexSearcher.search(query, 20)): `doc:score` in rank
 * order, scores as Java's Float.toString prints them. `plain` used BM25Similarity, `legacy` Lucene's
 * LegacyBM25Similarity (what Elasticsearch scores with). EXPLANATIONS are Explanation.toString() of the
 * top hit under LegacyBM25Similarity, the similarity's name replaced by Gannet's (`PerFieldSimilarity`, as
 * ES prints it).
 */
export const LUCENE_PLAIN: readonly string[] = [
  'term_fox total=7 3:0.19913194 6:0.195391 2:0.14461024 7:0.13308129 9:0.13308129 0:0.10090341 4:0.10090341',
  'term_quick total=5 1:0.3999763 8:0.3999763 7:0.27655843 0:0.20968905 4:0.20968905',
  'or_fox_quick total=9 7:0.40963972 1:0.3999763 8:0.3999763 0:0.31059247 4:0.31059247 3:0.19913194 6:0.195391 2:0.14461024 9:0.13308129',
  'and_fox_quick total=3 7:0.40963972 0:0.31059247 4:0.31059247',
  'must_fox_filter_quick total=3 7:0.13308129 0:0.10090341 4:0.10090341',
  'should_fox_lazy_not_dog total=4 2:0.6723283 7:0.6187273 3:0.19913194 6:0.195391',
  'msm2_fox_quick_lazy total=4 7:0.8952858 0:0.67881364 2:0.6723283 4:0.31059247',
  'must_fox_should_quick total=7 7:0.40963972 0:0.31059247 4:0.31059247 3:0.19913194 6:0.195391 2:0.14461024 9:0.13308129',
  'phrase_quick_brown total=2 1:0.70190585 0:0.4897626',
  'phrase_brown_fox total=3 3:0.7518545 9:0.50246966 0:0.38097697',
  'sloppy_fox_quick_2 total=2 7:0.1974355 4:0.1351279',
  'sloppy_brown_fox_brown_2 total=2 3:1.199121 9:1.0071721',
  'sloppy_quick_fox_lazy_3 total=1 7:0.8952857',
  'dismax_fox_quick total=9 1:0.3999763 8:0.3999763 7:0.3164828 0:0.23996007 4:0.23996007 3:0.19913194 6:0.195391 2:0.14461024 9:0.13308129',
  'dismax0_fox_quick total=9 1:0.3999763 8:0.3999763 7:0.27655843 0:0.20968905 4:0.20968905 3:0.19913194 6:0.195391 2:0.14461024 9:0.13308129',
  'const_fox total=7 0:2.5 2:2.5 3:2.5 4:2.5 6:2.5 7:2.5 9:2.5',
  'boost_fox total=7 3:0.5973958 6:0.58617306 2:0.43383074 7:0.39924386 9:0.39924386 0:0.30271024 4:0.30271024',
  'fuzzy_quack total=5 8:0.62049806 1:0.31998107 7:0.22124675 0:0.16775125 4:0.16775125',
  'fuzzy_quikc total=5 8:0.6806015 1:0.31998107 7:0.22124675 0:0.16775125 4:0.16775125',
  'prefix_qu total=5 0:1.0 1:1.0 4:1.0 7:1.0 8:1.0',
  'wildcard_f_x total=7 0:1.0 2:1.0 3:1.0 4:1.0 6:1.0 7:1.0 9:1.0',
  'should_boosted_fox_phrase_lazy_dog total=7 0:0.9382491 3:0.39826387 6:0.390782 2:0.28922048 7:0.26616257 9:0.26616257 4:0.20180681',
  'tag_a total=4 0:0.27562356 2:0.27562356 5:0.27562356 8:0.27562356',
  'tag_or_body total=6 1:0.79740256 9:0.57561135 3:0.5527226 2:0.39601368 7:0.39601368 0:0.28007358',
  'filter_only total=3 0:0.0 3:0.0 9:0.0',
  'dup_should total=7 9:0.75180864 0:0.57002795 4:0.57002795 3:0.39826387 6:0.390782 2:0.28922048 7:0.26616257',
];
export const LUCENE_LEGACY: readonly string[] = [
  'term_fox total=7 3:0.43809026 6:0.42986023 2:0.31814253 7:0.29277882 9:0.29277882 0:0.22198749 4:0.22198749',
  'term_quick total=5 1:0.8799479 8:0.8799479 7:0.6084286 0:0.46131593 4:0.46131593',
  'or_fox_quick total=9 7:0.90120745 1:0.8799479 8:0.8799479 0:0.6833034 4:0.6833034 3:0.43809026 6:0.42986023 2:0.31814253 9:0.29277882',
  'and_fox_quick total=3 7:0.90120745 0:0.6833034 4:0.6833034',
  'must_fox_filter_quick total=3 7:0.29277882 0:0.22198749 4:0.22198749',
  'should_fox_lazy_not_dog total=4 2:1.4791223 7:1.3612002 3:0.43809026 6:0.42986023',
  'msm2_fox_quick_lazy total=4 7:1.9696288 0:1.4933898 2:1.4791223 4:0.6833034',
  'must_fox_should_quick total=7 7:0.90120745 0:0.6833034 4:0.6833034 3:0.43809026 6:0.42986023 2:0.31814253 9:0.29277882',
  'phrase_quick_brown total=2 1:1.5441929 0:1.0774778',
  'phrase_brown_fox total=3 3:1.6540799 9:1.1054332 0:0.8381493',
  'sloppy_fox_quick_2 total=2 7:0.43435812 4:0.29728138',
  'sloppy_brown_fox_brown_2 total=2 3:2.6380663 9:2.2157788',
  'sloppy_quick_fox_lazy_3 total=1 7:1.9696286',
  'dismax_fox_quick total=9 1:0.8799479 8:0.8799479 7:0.69626224 0:0.5279122 4:0.5279122 3:0.43809026 6:0.42986023 2:0.31814253 9:0.29277882',
  'dismax0_fox_quick total=9 1:0.8799479 8:0.8799479 7:0.6084286 0:0.46131593 4:0.46131593 3:0.43809026 6:0.42986023 2:0.31814253 9:0.29277882',
  'const_fox total=7 0:2.5 2:2.5 3:2.5 4:2.5 6:2.5 7:2.5 9:2.5',
  'boost_fox total=7 3:1.3142709 6:1.2895808 2:0.9544277 7:0.87833655 9:0.87833655 0:0.6659626 4:0.6659626',
  'fuzzy_quack total=5 8:1.3650957 1:0.7039584 7:0.4867429 0:0.36905277 4:0.36905277',
  'fuzzy_quikc total=5 8:1.4973233 1:0.7039584 7:0.4867429 0:0.36905277 4:0.36905277',
  'prefix_qu total=5 0:1.0 1:1.0 4:1.0 7:1.0 8:1.0',
  'wildcard_f_x total=7 0:1.0 2:1.0 3:1.0 4:1.0 6:1.0 7:1.0 9:1.0',
  'should_boosted_fox_phrase_lazy_dog total=7 0:2.064148 3:0.8761805 6:0.85972047 2:0.63628507 7:0.58555764 9:0.58555764 4:0.44397497',
  'tag_a total=4 0:0.6063718 2:0.6063718 5:0.6063718 8:0.6063718',
  'tag_or_body total=6 1:1.7542857 9:1.266345 3:1.2159896 2:0.8712301 7:0.8712301 0:0.6161618',
  'filter_only total=3 0:0.0 3:0.0 9:0.0',
  'dup_should total=7 9:1.6539791 0:1.2540615 4:1.2540615 3:0.8761805 6:0.85972047 2:0.63628507 7:0.58555764',
];
export const LUCENE_LEGACY_EXPLANATIONS: Readonly<Record<string, string>> = {
  or_fox_quick: '0.90120745 = sum of:\n  0.29277882 = weight(body:fox in 7) [PerFieldSimilarity], result of:\n    0.29277882 = score(freq=1.0), computed as boost * idf * tf from:\n      2.2 = boost\n      0.2876821 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        7 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.46259844 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:\n        1.0 = freq, occurrences of term within document\n        1.2 = k1, term saturation parameter\n        0.75 = b, length normalization parameter\n        5.0 = dl, length of field\n        5.2222223 = avgdl, average length of field\n  0.6084286 = weight(body:quick in 7) [PerFieldSimilarity], result of:\n    0.6084286 = score(freq=1.0), computed as boost * idf * tf from:\n      2.2 = boost\n      0.597837 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        5 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.46259844 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:\n        1.0 = freq, occurrences of term within document\n        1.2 = k1, term saturation parameter\n        0.75 = b, length normalization parameter\n        5.0 = dl, length of field\n        5.2222223 = avgdl, average length of field\n',
  must_fox_filter_quick: '0.29277882 = sum of:\n  0.29277882 = weight(body:fox in 7) [PerFieldSimilarity], result of:\n    0.29277882 = score(freq=1.0), computed as boost * idf * tf from:\n      2.2 = boost\n      0.2876821 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        7 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.46259844 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:\n        1.0 = freq, occurrences of term within document\n        1.2 = k1, term saturation parameter\n        0.75 = b, length normalization parameter\n        5.0 = dl, length of field\n        5.2222223 = avgdl, average length of field\n  0.0 = match on required clause, product of:\n    0.0 = # clause\n    1.0 = body:quick\n',
  sloppy_brown_fox_brown_2: '2.6380663 = weight(body:"brown fox brown"~2 in 3) [PerFieldSimilarity], result of:\n  2.6380663 = score(freq=2.3333333), computed as boost * idf * tf from:\n    2.2 = boost\n    1.8846974 = idf, sum of:\n      0.7985077 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        4 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.2876821 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        7 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.7985077 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        4 = n, number of documents containing term\n        9 = N, total number of documents with field\n    0.6362406 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:\n      2.3333333 = phraseFreq=2.3333333\n      1.2 = k1, term saturation parameter\n      0.75 = b, length normalization parameter\n      6.0 = dl, length of field\n      5.2222223 = avgdl, average length of field\n',
  dismax_fox_quick: '0.8799479 = max plus 0.3 times others of:\n  0.8799479 = weight(body:quick in 1) [PerFieldSimilarity], result of:\n    0.8799479 = score(freq=2.0), computed as boost * idf * tf from:\n      2.2 = boost\n      0.597837 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        5 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.66903913 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:\n        2.0 = freq, occurrences of term within document\n        1.2 = k1, term saturation parameter\n        0.75 = b, length normalization parameter\n        4.0 = dl, length of field\n        5.2222223 = avgdl, average length of field\n',
  const_fox: '2.5 = ConstantScore(body:fox)^2.5\n',
  msm2_fox_quick_lazy: '1.9696288 = sum of:\n  0.29277882 = weight(body:fox in 7) [PerFieldSimilarity], result of:\n    0.29277882 = score(freq=1.0), computed as boost * idf * tf from:\n      2.2 = boost\n      0.2876821 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        7 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.46259844 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:\n        1.0 = freq, occurrences of term within document\n        1.2 = k1, term saturation parameter\n        0.75 = b, length normalization parameter\n        5.0 = dl, length of field\n        5.2222223 = avgdl, average length of field\n  0.6084286 = weight(body:quick in 7) [PerFieldSimilarity], result of:\n    0.6084286 = score(freq=1.0), computed as boost * idf * tf from:\n      2.2 = boost\n      0.597837 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        5 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.46259844 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:\n        1.0 = freq, occurrences of term within document\n        1.2 = k1, term saturation parameter\n        0.75 = b, length normalization parameter\n        5.0 = dl, length of field\n        5.2222223 = avgdl, average length of field\n  1.0684214 = weight(body:lazy in 7) [PerFieldSimilarity], result of:\n    1.0684214 = score(freq=1.0), computed as boost * idf * tf from:\n      2.2 = boost\n      1.0498221 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        3 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.46259844 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:\n        1.0 = freq, occurrences of term within document\n        1.2 = k1, term saturation parameter\n        0.75 = b, length normalization parameter\n        5.0 = dl, length of field\n        5.2222223 = avgdl, average length of field\n',
  fuzzy_quack: '1.3650957 = sum of:\n  0.66113734 = weight(body:quack in 8) [PerFieldSimilarity], result of:\n    0.66113734 = score(freq=1.0), computed as boost * idf * tf from:\n      2.2 = boost\n      0.597837 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        5 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.5026738 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:\n        1.0 = freq, occurrences of term within document\n        1.2 = k1, term saturation parameter\n        0.75 = b, length normalization parameter\n        4.0 = dl, length of field\n        5.2222223 = avgdl, average length of field\n  0.7039584 = weight(body:quick in 8) [PerFieldSimilarity], result of:\n    0.7039584 = score(freq=2.0), computed as boost * idf * tf from:\n      1.7600001 = boost\n      0.597837 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        5 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.66903913 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:\n        2.0 = freq, occurrences of term within document\n        1.2 = k1, term saturation parameter\n        0.75 = b, length normalization parameter\n        4.0 = dl, length of field\n        5.2222223 = avgdl, average length of field\n',
  should_fox_lazy_not_dog: '1.4791223 = sum of:\n  0.31814253 = weight(body:fox in 2) [PerFieldSimilarity], result of:\n    0.31814253 = score(freq=1.0), computed as boost * idf * tf from:\n      2.2 = boost\n      0.2876821 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        7 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.5026738 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:\n        1.0 = freq, occurrences of term within document\n        1.2 = k1, term saturation parameter\n        0.75 = b, length normalization parameter\n        4.0 = dl, length of field\n        5.2222223 = avgdl, average length of field\n  1.1609797 = weight(body:lazy in 2) [PerFieldSimilarity], result of:\n    1.1609797 = score(freq=1.0), computed as boost * idf * tf from:\n      2.2 = boost\n      1.0498221 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:\n        3 = n, number of documents containing term\n        9 = N, total number of documents with field\n      0.5026738 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:\n        1.0 = freq, occurrences of term within document\n        1.2 = k1, term saturation parameter\n        0.75 = b, length normalization parameter\n        4.0 = dl, length of field\n        5.2222223 = avgdl, average length of field\n',
};
