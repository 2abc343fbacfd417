import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The pay.sessionUpdated notifications of this till's payments, each taken once and in order.
 *
 * Every notification carries the payment's event number, seq (1, 2, 3 ...); the till keeps the last one it took per
 * payment. After a reconnection the server first restates the current state of each open payment ("restated": true,
 * with the seq it stands at). When that seq is past the last one taken, events were missed while the link was down:
 * the till asks for them (pay.events after its last seq) and takes them in order, before anything newer.
 */
public final class PaymentUpdates {
    private final Map<String, Long> lastSeq = new HashMap<>();
    /** Payments whose missed events are being fetched, with the notifications that came meanwhile. */
    private final Map<String, List<Map<String, Object>>> catchingUp = new HashMap<>();
    private final BlockingQueue<Map<String, Object>> taken = new LinkedBlockingQueue<>();
    private volatile Bridge bridge;

    /** The bridge to ask pay.events on (it is built after this, since it hands its notifications here). */
    public void askMissedEventsOn(Bridge bridge) {
        this.bridge = bridge;
    }

    /** Called by the bridge for every pay.sessionUpdated (on its reading thread: never wait here). */
    public synchronized void onSessionUpdated(Map<String, Object> update) {
        String paymentId = (String) update.get("paymentId");
        List<Map<String, Object>> held = catchingUp.get(paymentId);
        if (held != null) {
            held.add(update); // taken once the missed events are in, so that the order holds
            return;
        }
        long last = lastSeq.getOrDefault(paymentId, 0L);
        long seq = seqOf(update);
        // A restated state is not an event: even one step ahead, the event it sums up (with its `event` field,
        // such as refundUpdated) was missed. A payment never seen before has nothing missed.
        boolean restated = Boolean.TRUE.equals(update.get("restated"));
        boolean missedSome = last > 0 && seq > (restated ? last : last + 1);
        if (!missedSome) {
            takeIfNew(update);
            return;
        }
        catchingUp.put(paymentId, new ArrayList<>(List.of(update)));
        // On another thread: pay.events's answer comes through the bridge's reading thread, which is this one.
        CompletableFuture.runAsync(() -> catchUp(paymentId, last));
    }

    private void catchUp(String paymentId, long afterSeq) {
        List<?> missed = List.of();
        try {
            Map<String, Object> answer = Bridge.asMap(bridge.intent("pay.events",
                    Json.object("paymentId", paymentId, "afterSeq", afterSeq)));
            missed = (List<?>) answer.get("events");
            Till.say("pay.events " + paymentId + " after seq " + afterSeq + ": " + missed.size() + " missed");
        } catch (Exception e) {
            // A server without pay.events, or no answer at all: go on with what came, the current state at least.
            Till.say("pay.events " + paymentId + " failed (" + e.getMessage() + "): taking the restated state");
        }
        synchronized (this) {
            for (Object event : missed) takeIfNew(Bridge.asMap(event));
            for (Map<String, Object> update : catchingUp.remove(paymentId)) takeIfNew(update);
        }
    }

    private void takeIfNew(Map<String, Object> update) {
        String paymentId = (String) update.get("paymentId");
        long seq = seqOf(update);
        if (seq != 0) {
            if (seq <= lastSeq.getOrDefault(paymentId, 0L)) return; // had it already
            lastSeq.put(paymentId, seq);
        }
        Till.say("pay.sessionUpdated " + paymentId + " seq " + seq + ": " + update.get("phase")
                + (update.containsKey("event") ? " (" + update.get("event") + ")" : "")
                + (Boolean.TRUE.equals(update.get("restated")) ? " (restated)" : ""));
        taken.add(update);
    }

    /** The update's seq; 0 from a server that sends none. */
    private static long seqOf(Map<String, Object> update) {
        Object seq = update.get("seq");
        return seq instanceof Number ? ((Number) seq).longValue() : 0;
    }

    /**
     * Waits for the payment to reach one of the phases; returns that update. The updates of other payments, and
     * those in other phases, are passed over. Null when the time runs out.
     */
    public Map<String, Object> waitForPhase(String paymentId, Set<String> phases, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            Map<String, Object> update = taken.poll(Math.max(left, 0), TimeUnit.NANOSECONDS);
            if (update == null) return null;
            if (paymentId.equals(update.get("paymentId")) && phases.contains(update.get("phase"))) return update;
        }
    }
}
