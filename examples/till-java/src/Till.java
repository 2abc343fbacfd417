import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A reference till on the cash desk's bridge (wallet-pos.v1): one sale paid with the wallet, start to end.
 *
 *   1. the customer shows the wallet app's barcode: barcode.verify (loyalty), then pay.start with the same scan
 *   2. follow the payment by its pay.sessionUpdated notifications until the customer confirms in the app
 *   3. the link drops meanwhile (simulated): reconnect, and fetch the events missed (pay.events)
 *   4. succeeded: send the receipt; then refund it all, as a customer returning the goods would ask
 *
 * Configuration (environment): WPK_CASHDESK_URL, WPK_TILL_KEY, and WPK_SANDBOX_URL (the sandbox wallet service,
 * which plays the customer here). Exit 0 when the payment succeeded; 1 otherwise.
 */
public final class Till {
    /** Phases in which the till stops waiting: the payment is paid, or needs a person to decide. */
    private static final Set<String> OUTCOMES = Set.of("succeeded", "unsuccessful", "unavailable", "blocked",
            "abandoned", "rescanning");
    private static final Duration CUSTOMER_TIME = Duration.ofSeconds(60);

    public static void main(String[] args) throws Exception {
        String cashDeskUrl = requireEnv("WPK_CASHDESK_URL").replaceAll("/+$", "");
        URI bridgeUri = URI.create(cashDeskUrl.replaceFirst("^http", "ws") + "/ws");
        Sandbox sandbox = new Sandbox(requireEnv("WPK_SANDBOX_URL"));
        PaymentUpdates updates = new PaymentUpdates();

        int exitCode;
        try (Bridge bridge = new Bridge(bridgeUri, requireEnv("WPK_TILL_KEY"), updates::onSessionUpdated)) {
            updates.askMissedEventsOn(bridge);
            bridge.start();
            exitCode = sell(bridge, updates, sandbox);
        }
        System.exit(exitCode);
    }

    private static int sell(Bridge bridge, PaymentUpdates updates, Sandbox sandbox) throws Exception {
        // The customer opens the wallet app; its barcode is what the till's scanner reads.
        Map<String, Object> card = sandbox.issueCard();
        String cardNumber = (String) card.get("cardNumber");
        String scan = (String) card.get("barcode");
        say("scanned the barcode of card " + cardNumber);

        // Loyalty first: is this a valid card of ours? The same scan then pays (once, by this till).
        Map<String, Object> verification = Bridge.asMap(bridge.intent("barcode.verify",
                Json.object("fullBarcode", scan)));
        say("barcode.verify: " + verification.get("resultCode") + " (" + verification.get("reason") + ")");
        if (!"CARDSESSION_AVAILABLE".equals(verification.get("resultCode"))) return 1;

        // The paymentId is ours: it makes pay.start safe to send again after a lost answer.
        String paymentId = "till-java-" + System.currentTimeMillis();
        List<Object> items = List.of(
                Json.object("name", "Coffee beans 1 kg", "article", "DEMO-1", "quantity", 1, "price", 20000),
                Json.object("name", "Croissant", "article", "DEMO-2", "quantity", 2, "price", 2500));
        Map<String, Object> basket = Json.object("items", items, "discountAmount", 0);
        Map<String, Object> started = Bridge.asMap(bridge.intent("pay.start",
                Json.object("fullBarcode", scan, "basket", basket, "paymentId", paymentId)));
        say("pay.start " + paymentId + ": " + started.get("phase") + ", " + started.get("totalAmount") + " kopecks");

        // Notifications may have come before this answer: they wait in `updates`, nothing is lost.
        Map<String, Object> update = updates.waitForPhase(paymentId, union(OUTCOMES, "pending", "offered"),
                CUSTOMER_TIME);
        if (update != null && "offered".equals(update.get("phase"))) {
            // The customer has several ways to pay and chose the wallet: check out.
            bridge.intent("pay.checkout", Json.object("paymentId", paymentId));
            update = updates.waitForPhase(paymentId, union(OUTCOMES, "pending"), CUSTOMER_TIME);
        }
        if (update == null || !"pending".equals(update.get("phase"))) return finish(update);

        // The invoice is on the customer's phone. Our link drops now, while the customer confirms: the bridge
        // reconnects by itself, the server restates each open payment, and PaymentUpdates fetches the events missed.
        bridge.simulateLostConnection();
        sandbox.confirmAsCustomer(cardNumber, update.get("transactionId"));
        say("the customer confirmed in the wallet app");
        update = updates.waitForPhase(paymentId, OUTCOMES, CUSTOMER_TIME);
        int exitCode = finish(update);
        if (exitCode != 0) return exitCode;

        Map<String, Object> receipt = Json.object("number", paymentId, "issuedAt", Instant.now().toString(),
                "items", items, "totalAmount", started.get("totalAmount"));
        Map<String, Object> afterReceipt = Bridge.asMap(bridge.intent("pay.receipt",
                Json.object("paymentId", paymentId, "receipt", receipt)));
        System.out.println("receipt: " + (Boolean.TRUE.equals(afterReceipt.get("receiptSent")) ? "sent" : "not sent"));

        // The refundId is ours too: sending the same refund again never refunds twice.
        Map<String, Object> afterRefund = Bridge.asMap(bridge.intent("pay.refund",
                Json.object("paymentId", paymentId, "refundId", paymentId + "-refund-1")));
        System.out.println("refund: " + afterRefund.get("refundedAmount") + " kopecks, phase "
                + afterRefund.get("phase"));
        return 0;
    }

    /** Prints the final phase; 0 for succeeded. */
    private static int finish(Map<String, Object> update) {
        if (update == null) {
            System.out.println("phase: no outcome within " + CUSTOMER_TIME.toSeconds() + " s");
            return 1;
        }
        String reason = update.containsKey("reason") ? " (" + update.get("reason") + ")" : "";
        System.out.println("phase: " + update.get("phase") + reason);
        return "succeeded".equals(update.get("phase")) ? 0 : 1;
    }

    /** One line of the till's log. */
    static synchronized void say(String line) {
        System.out.println("till: " + line);
    }

    private static Set<String> union(Set<String> phases, String... more) {
        java.util.HashSet<String> all = new java.util.HashSet<>(phases);
        all.addAll(List.of(more));
        return all;
    }

    private static String requireEnv(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            System.err.println("till: set " + name);
            System.exit(2);
        }
        return value;
    }
}
