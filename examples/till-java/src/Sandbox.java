import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The kit's sandbox wallet service, standing in for the customer and the phone: it issues a card (whose barcode
 * the till scans) and confirms the invoice the way the customer does in the wallet app. A real till has none of
 * this: the customer shows the barcode and taps Confirm.
 */
public final class Sandbox {
    private final String baseUrl;
    // HTTP/1.1 on purpose: Java's default (HTTP/2) offers "Upgrade: h2c" on http://, which some servers refuse.
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    public Sandbox(String baseUrl) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
    }

    /** A fresh card: cardNumber, barcode (what the till scans), ... */
    public Map<String, Object> issueCard() throws IOException, InterruptedException {
        return Bridge.asMap(post("/sandbox/cards", Map.of()));
    }

    /** Confirms the card's invoice for this transaction, as the customer does in the wallet app. */
    public void confirmAsCustomer(String cardNumber, Object transactionId) throws IOException, InterruptedException {
        String query = "?cardNumber=" + URLEncoder.encode(cardNumber, StandardCharsets.UTF_8);
        List<?> invoices = (List<?>) Bridge.asMap(get("/sandbox/app/invoices" + query)).get("invoices");
        for (Object invoice : invoices) {
            Object id = Bridge.asMap(invoice).get("transactionId");
            if (String.valueOf(id).equals(String.valueOf(transactionId))) {
                post("/sandbox/app/transactions/" + URLEncoder.encode(String.valueOf(id), StandardCharsets.UTF_8)
                        + "/confirm", Map.of());
                return;
            }
        }
        throw new IOException("the wallet app shows no invoice " + transactionId + " for card " + cardNumber);
    }

    private Object get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET());
    }

    private Object post(String path, Object body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))));
    }

    private Object send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException(response.request().uri() + ": " + response.statusCode() + " " + response.body());
        }
        return Json.parse(response.body());
    }
}
