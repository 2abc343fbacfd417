import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The till's connection to the cash desk's bridge: JSON-RPC 2.0 over WebSocket, subprotocol wallet-pos.v1.
 *
 * - {@link #call} sends one request and waits for the answer carrying the same id. Answers may overtake each
 *   other, so each call waits on its own id, never on "the next frame".
 * - Notifications (pay.sessionUpdated) go to the consumer given to the constructor, in the order they came.
 * - When the connection drops, the calls waiting on it fail with {@link ConnectionLost}, and a background thread
 *   connects again with backoff, for as long as the till runs. {@link #intent} sends a call again after such a
 *   failure, and after the answers that say "retry".
 */
public final class Bridge implements AutoCloseable {
    public static final String SUBPROTOCOL = "wallet-pos.v1";

    /** Error codes (error.data.code) that mean "send the same intent again after a pause". */
    private static final Set<String> RETRY_CODES = Set.of("DATABASE_UNAVAILABLE", "PAYMENT_BUSY", "PAYMENT_MOVED");
    private static final int MAX_ATTEMPTS = 8;
    /** A pay.start may wait for the Pay API (10 s by default on the server): leave it room. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    /** The server pings every 30 s; hearing nothing for longer than two of those means the link is dead. */
    private static final Duration SILENCE_LIMIT = Duration.ofSeconds(75);

    /** A JSON-RPC error answer. Branch on {@link #dataCode}, the stable code; the message is for people. */
    public static final class RpcError extends Exception {
        public final long code;
        public final String dataCode;
        /** From data.retryAfterMs when the server says how long to wait, else null. */
        public final Long retryAfterMs;

        RpcError(long code, String message, String dataCode, Long retryAfterMs) {
            super(dataCode + ": " + message);
            this.code = code;
            this.dataCode = dataCode;
            this.retryAfterMs = retryAfterMs;
        }
    }

    /** The connection went away before the answer came: the server may or may not have run the call. */
    public static final class ConnectionLost extends Exception {
        ConnectionLost(String why) {
            super(why);
        }
    }

    private final URI uri;
    private final String tillKey;
    private final Consumer<Map<String, Object>> onNotification;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final AtomicLong nextId = new AtomicLong(1);
    /** The calls sent and not yet answered, by their JSON-RPC id. */
    private final Map<Long, CompletableFuture<Map<String, Object>>> waiting = new ConcurrentHashMap<>();
    /** Java's WebSocket allows one send at a time (a second one throws IllegalStateException): sends take turns. */
    private final Object sendLock = new Object();
    /** Completes with the open connection; replaced by a new, pending one when the connection is lost. */
    private volatile CompletableFuture<Connection> connected = new CompletableFuture<>();
    private volatile boolean closing;

    public Bridge(URI uri, String tillKey, Consumer<Map<String, Object>> onNotification) {
        this.uri = uri;
        this.tillKey = tillKey;
        this.onNotification = onNotification;
    }

    /** Starts connecting (and reconnecting whenever the link drops); waits until the first connection is open. */
    public void start() throws InterruptedException, ConnectionLost {
        Thread keeper = new Thread(this::keepConnected, "bridge-connection");
        keeper.setDaemon(true);
        keeper.start();
        waitForConnection();
    }

    /**
     * Sends an intent until the server answers it: after a lost connection (once reconnected) and after the
     * answers DATABASE_UNAVAILABLE, PAYMENT_BUSY and PAYMENT_MOVED, with a growing pause. Safe because every
     * intent is idempotent: pay.start by its paymentId, pay.refund by its refundId.
     */
    public Object intent(String method, Map<String, Object> params) throws RpcError, ConnectionLost,
            InterruptedException {
        for (int attempt = 1; ; attempt++) {
            long pauseMs;
            try {
                return call(method, params);
            } catch (RpcError e) {
                if (!RETRY_CODES.contains(e.dataCode) || attempt == MAX_ATTEMPTS) throw e;
                pauseMs = e.retryAfterMs != null ? e.retryAfterMs : backoffMs(attempt);
                Till.say(method + " answered " + e.dataCode + ": again in " + pauseMs + " ms");
            } catch (ConnectionLost e) {
                if (attempt == MAX_ATTEMPTS) throw e;
                pauseMs = backoffMs(attempt);
                Till.say(method + " lost (" + e.getMessage() + "): again in " + pauseMs + " ms");
            }
            Thread.sleep(pauseMs);
        }
    }

    /** Sends one request and waits for its answer: the result, or the error as {@link RpcError}. */
    public Object call(String method, Map<String, Object> params) throws RpcError, ConnectionLost,
            InterruptedException {
        Connection connection = waitForConnection();
        long id = nextId.getAndIncrement();
        CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
        waiting.put(id, answer);
        try {
            connection.send(Json.write(Json.object("jsonrpc", "2.0", "id", id, "method", method, "params", params)));
            Map<String, Object> frame = answer.get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (!frame.containsKey("error")) return frame.get("result");
            throw rpcError(asMap(frame.get("error")));
        } catch (ExecutionException e) {
            throw new ConnectionLost(e.getCause().getMessage());
        } catch (TimeoutException e) {
            throw new ConnectionLost("no answer within " + CALL_TIMEOUT.toSeconds() + " s");
        } finally {
            waiting.remove(id);
        }
    }

    /** Cuts the connection without a goodbye, as a pulled cable would; the till reconnects by itself. */
    public void simulateLostConnection() {
        Connection connection = connected.getNow(null);
        if (connection != null) connection.lose("simulated: the cable was pulled");
    }

    @Override
    public void close() {
        closing = true;
        connected.thenAccept(connection -> connection.socket.sendClose(WebSocket.NORMAL_CLOSURE, "till closing"));
    }

    // ---- connecting ----

    private Connection waitForConnection() throws InterruptedException, ConnectionLost {
        try {
            return connected.get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new ConnectionLost("not connected");
        }
    }

    /** The background thread: connect, wait until the link is lost, pause, connect again. */
    private void keepConnected() {
        int failures = 0;
        while (!closing) {
            try {
                Connection connection = open();
                failures = 0;
                Till.say("connected to " + uri);
                connected.complete(connection);
                String why = connection.lost.get();
                if (closing) return;
                // Calls still waiting were sent on this connection: their answers will never come here.
                connected = new CompletableFuture<>();
                for (CompletableFuture<Map<String, Object>> answer : waiting.values()) {
                    answer.completeExceptionally(new ConnectionLost(why));
                }
                Till.say("connection lost (" + why + "): reconnecting");
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                Till.say("cannot connect: " + rootMessage(e));
            }
            failures++;
            try {
                Thread.sleep(backoffMs(failures));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private Connection open() throws InterruptedException, ExecutionException {
        Connection connection = new Connection();
        connection.socket = http.newWebSocketBuilder()
                .header("Authorization", "Bearer " + tillKey)
                .subprotocols(SUBPROTOCOL)
                .connectTimeout(Duration.ofSeconds(10))
                .buildAsync(uri, connection)
                .get();
        connection.watchSilence();
        return connection;
    }

    /** One WebSocket connection: reads frames, and says when it is lost (closed, failed or silent too long). */
    private final class Connection implements WebSocket.Listener {
        WebSocket socket;
        final CompletableFuture<String> lost = new CompletableFuture<>();
        private final StringBuilder parts = new StringBuilder();
        private volatile long lastHeardNanos = System.nanoTime();

        void send(String text) throws ConnectionLost {
            synchronized (sendLock) {
                try {
                    socket.sendText(text, true).get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new ConnectionLost("send failed: " + rootMessage(e));
                }
            }
        }

        void lose(String why) {
            socket.abort();
            lost.complete(why);
        }

        /** Java's WebSocket does not notice a dead link by itself: the server's pings stopping is the sign. */
        void watchSilence() {
            Thread watcher = new Thread(() -> {
                while (!lost.isDone()) {
                    try {
                        Thread.sleep(5_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                    long silentNanos = System.nanoTime() - lastHeardNanos;
                    if (silentNanos > SILENCE_LIMIT.toNanos()) lose("silent for " + SILENCE_LIMIT.toSeconds() + " s");
                }
            }, "bridge-silence-watch");
            watcher.setDaemon(true);
            watcher.start();
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            lastHeardNanos = System.nanoTime();
            parts.append(data); // a long frame may come in several parts
            if (last) {
                String frame = parts.toString();
                parts.setLength(0);
                handleFrame(frame);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onPing(WebSocket webSocket, ByteBuffer message) {
            lastHeardNanos = System.nanoTime(); // the pong goes back by itself
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            lost.complete("closed by the server: " + statusCode + " " + reason);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            lost.complete("failed: " + rootMessage(error));
        }
    }

    // ---- frames ----

    /** An answer goes to the call waiting on its id; a notification to the consumer. A batch is a list of these. */
    private void handleFrame(String text) {
        Object frame;
        try {
            frame = Json.parse(text);
        } catch (IllegalArgumentException e) {
            Till.say("ignored a frame that is not JSON: " + e.getMessage());
            return;
        }
        List<?> messages = frame instanceof List ? (List<?>) frame : List.of(frame);
        for (Object message : messages) {
            Map<String, Object> m = asMap(message);
            if (m.containsKey("method")) {
                onNotification.accept(asMap(m.get("params")));
            } else if (m.get("id") instanceof Long) {
                CompletableFuture<Map<String, Object>> answer = waiting.get((Long) m.get("id"));
                if (answer != null) answer.complete(m); // else an answer to a call that gave up waiting
            } else {
                Till.say("an answer with no id we sent: " + text); // e.g. a parse error, id null
            }
        }
    }

    private static RpcError rpcError(Map<String, Object> error) {
        Map<String, Object> data = asMap(error.getOrDefault("data", Map.of()));
        Object retryAfter = data.get("retryAfterMs");
        Long retryAfterMs = retryAfter instanceof Number ? ((Number) retryAfter).longValue() : null;
        return new RpcError(((Number) error.get("code")).longValue(), String.valueOf(error.get("message")),
                String.valueOf(data.get("code")), retryAfterMs);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }

    /** 0.5 s, 1 s, 2 s ... up to 10 s, each somewhere between half and all of it, so tills do not retry in step. */
    static long backoffMs(int attempt) {
        long ceiling = Math.min(10_000, 500L << Math.min(attempt - 1, 5));
        return ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);
    }

    private static String rootMessage(Throwable e) {
        while (e.getCause() != null) e = e.getCause();
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
