import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
// Prints Lucene's ASCIIFoldingFilter mapping for every BMP char it changes: "hex\treplacement" lines.
public class AsciiFoldingTable {
  public static void main(String[] a) {
    char[] out = new char[16];
    StringBuilder sb = new StringBuilder();
    for (int c = 0x80; c <= 0xFFFF; c++) {
      int n = ASCIIFoldingFilter.foldToASCII(new char[] {(char) c}, 0, out, 0, 1);
      String r = new String(out, 0, n);
      if (!(n == 1 && out[0] == c)) sb.append(Integer.toHexString(c)).append('\t').append(r).append('\n');
    }
    System.out.print(sb);
  }
}
