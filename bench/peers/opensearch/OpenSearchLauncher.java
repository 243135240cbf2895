/*
 * Starts one OpenSearch node in this JVM the way OpenSearch's own test framework does: a MockNode built from
 * settings and a list of plugin classes found on the class path (no plugins folder, no security manager, no
 * bootstrap checks: those live in the distribution's Bootstrap, which is not used here). Without the test
 * framework's mock plugins in the list, MockNode builds the same services as the distribution's Node.
 *
 * Usage: java -cp <maven class path>:<this class> OpenSearchLauncher key=value ...
 * Every argument is a node setting. Once HTTP is bound, one JSON line goes to stdout:
 *   {"event":"started","http_address":"127.0.0.1:PORT","transport_address":"127.0.0.1:PORT","version":"2.19.6"}
 * SIGTERM closes the node (a JVM shutdown hook) and exits.
 */
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.opensearch.Version;
import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.common.settings.Settings;
import org.opensearch.http.HttpServerTransport;
import org.opensearch.index.reindex.ReindexPlugin;
import org.opensearch.node.MockNode;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4Plugin;
import org.opensearch.transport.TransportService;

public final class OpenSearchLauncher {
    /** The distribution's modules a benchmark or a comparison of answers needs. */
    private static final List<Class<? extends Plugin>> MODULES = List.of(
        Netty4Plugin.class,          // HTTP and node-to-node transport
        ReindexPlugin.class,         // _reindex, _update_by_query, _delete_by_query
        PainlessPlugin.class,        // scripts
        CommonAnalysisPlugin.class   // the analyzers, tokenizers and filters beyond `standard`
    );

    public static void main(String[] args) throws Exception {
        Settings.Builder settings = Settings.builder();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("expected key=value, got [" + arg + "]");
            }
            settings.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        Node node = new MockNode(settings.build(), MODULES);
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
                node.awaitClose(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                closed.countDown();
            }
        }, "opensearch-launcher-shutdown"));
        node.start();
        String http = node.injector().getInstance(HttpServerTransport.class).boundAddress().publishAddress().toString();
        String transport = node.injector().getInstance(TransportService.class).boundAddress().publishAddress().toString();
        System.out.println("{\"event\":\"started\",\"http_address\":\"" + http + "\",\"transport_address\":\"" + transport
            + "\",\"version\":\"" + Version.CURRENT + "\"}");
        System.out.flush();
        closed.await();
    }
}
