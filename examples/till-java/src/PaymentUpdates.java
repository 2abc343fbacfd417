import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The pay.sessionUpdated notifications of this till's payments, each taken once.
 *
 * Every notification carries the payment's event number, seq (1, 2, 3 ...). After a reconnection the server first
 * sends the current state of each open payment, with the seq it stands at, then the newer events. A notification
 * whose seq is not above the last one kept for its payment was seen already, and is dropped here.
 */
public final class PaymentUpdates {
    private final Map<String, Long> lastSeq = new HashMap<>();
    private final BlockingQueue<Map<String, Object>> fresh = new LinkedBlockingQueue<>();

    /** Called by the bridge for every pay.sessionUpdated (on its reading thread: keep it quick). */
    public synchronized void onSessionUpdated(Map<String, Object> update) {
        String paymentId = (String) update.get("paymentId");
        Object seq = update.get("seq");
        if (seq instanceof Long) {
            Long last = lastSeq.get(paymentId);
            if (last != null && (Long) seq <= last) return;
            lastSeq.put(paymentId, (Long) seq);
        }
        Till.say("pay.sessionUpdated " + paymentId + " seq " + seq + ": " + update.get("phase")
                + (update.containsKey("event") ? " (" + update.get("event") + ")" : ""));
        fresh.add(update);
    }

    /** The last seq seen of a payment, or 0. */
    public synchronized long lastSeq(String paymentId) {
        return lastSeq.getOrDefault(paymentId, 0L);
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
            Map<String, Object> update = fresh.poll(Math.max(left, 0), TimeUnit.NANOSECONDS);
            if (update == null) return null;
            if (paymentId.equals(update.get("paymentId")) && phases.contains(update.get("phase"))) return update;
        }
    }
}
