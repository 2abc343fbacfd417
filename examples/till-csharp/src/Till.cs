// A reference till on the cash desk's bridge (wallet-pos.v1): one sale paid with the wallet, start to end.
//   1. the customer shows the wallet app's barcode: barcode.verify (loyalty), then pay.start with the same scan
//   2. follow the payment by its pay.sessionUpdated notifications until the customer confirms in the app
//   3. the link drops meanwhile (simulated): reconnect, and fetch the events missed (pay.events)
//   4. succeeded: send the receipt; then refund it all, as a customer returning the goods would ask
// Configuration (environment): WPK_CASHDESK_URL, WPK_TILL_KEY, WPK_SANDBOX_URL. Exit 0 when the payment succeeded.
using System;
using System.Collections.Generic;
using System.Globalization;

namespace WalletTill
{
    /// <summary>The sale, step by step: verify, pay, wait, receipt, refund.</summary>
    public static class Till
    {
        const int CustomerTimeMs = 60000;
        static readonly long UnixEpochTicks = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc).Ticks;
        // Phases in which the till stops waiting: the payment is paid, or needs a person to decide.
        static readonly string[] Outcomes =
        {
            "succeeded", "unsuccessful", "unavailable", "blocked", "abandoned", "rescanning",
        };
        static readonly object Output = new object();

        /// <summary>One line of the till's log, whole even when threads write at once.</summary>
        public static void Say(string line)
        {
            lock (Output) Console.WriteLine("till: " + line);
        }

        static void Print(string line)
        {
            lock (Output) Console.WriteLine(line);
        }

        public static int Main()
        {
            string cashDeskUrl = RequireEnv("WPK_CASHDESK_URL").TrimEnd('/');
            string tillKey = RequireEnv("WPK_TILL_KEY");
            var sandbox = new Sandbox(RequireEnv("WPK_SANDBOX_URL"));
            string bridgeUrl = "ws" + cashDeskUrl.Substring("http".Length) + "/ws"; // http -> ws, https -> wss
            var updates = new PaymentUpdates();
            var bridge = new Bridge(bridgeUrl, tillKey, updates.OnSessionUpdated);
            updates.Bridge = bridge;
            try
            {
                bridge.Start();
                return Sell(bridge, updates, sandbox);
            }
            catch (Exception error)
            {
                Say("failed: " + error.GetType().Name + ": " + error.Message);
                return 1;
            }
            finally
            {
                bridge.Close();
            }
        }

        static int Sell(Bridge bridge, PaymentUpdates updates, Sandbox sandbox)
        {
            // The customer opens the wallet app; its barcode is what the till's scanner reads.
            object card = sandbox.IssueCard();
            string cardNumber = Json.Text(card, "cardNumber");
            string scan = Json.Text(card, "barcode");
            Say("scanned the barcode of card " + cardNumber);

            // Loyalty first: is this a valid card of ours? The same scan then pays (once, by this till).
            object verification =
                bridge.Intent("barcode.verify", new Dictionary<string, object> { { "fullBarcode", scan } });
            Say("barcode.verify: " + Json.Text(verification, "resultCode")
                + " (" + Json.Text(verification, "reason") + ")");
            if (Json.Text(verification, "resultCode") != "CARDSESSION_AVAILABLE") return 1;

            // The paymentId is ours: it makes pay.start safe to send again after a lost answer.
            string paymentId = "till-csharp-" + (DateTime.UtcNow.Ticks - UnixEpochTicks) / TimeSpan.TicksPerMillisecond;
            var items = new List<object>
            {
                Item("Coffee beans 1 kg", "DEMO-1", 1, 20000), Item("Croissant", "DEMO-2", 2, 2500),
            };
            var start = new Dictionary<string, object>
            {
                { "fullBarcode", scan },
                { "basket", new Dictionary<string, object> { { "items", items }, { "discountAmount", 0 } } },
                { "paymentId", paymentId },
            };
            object started = bridge.Intent("pay.start", start);
            Say("pay.start " + paymentId + ": " + Json.Text(started, "phase") + ", "
                + Json.Text(started, "totalAmount") + " kopecks");

            // Notifications may have come before this answer: they wait in `updates`, nothing is lost.
            var waitingPhases = new List<string>(Outcomes) { "pending", "offered" };
            object update = updates.WaitForPhase(paymentId, waitingPhases, CustomerTimeMs);
            if (update != null && Json.Text(update, "phase") == "offered")
            {
                // The customer has several ways to pay and chose the wallet: check out.
                bridge.Intent("pay.checkout", new Dictionary<string, object> { { "paymentId", paymentId } });
                update = updates.WaitForPhase(paymentId, waitingPhases, CustomerTimeMs);
            }
            if (update == null || Json.Text(update, "phase") != "pending") return Finish(update);

            // The invoice is on the customer's phone. Our link drops now, while the customer confirms: the bridge
            // reconnects by itself, the server restates each open payment, and PaymentUpdates fetches what it missed.
            Say("pulling the cable (simulated): the bridge reconnects by itself");
            bridge.SimulateLostConnection();
            sandbox.ConfirmAsCustomer(cardNumber, Json.Text(update, "transactionId"));
            Say("the customer confirmed in the wallet app");
            int exitCode = Finish(updates.WaitForPhase(paymentId, Outcomes, CustomerTimeMs));
            if (exitCode != 0) return exitCode;

            var receipt = new Dictionary<string, object>
            {
                { "number", paymentId },
                { "issuedAt", DateTime.UtcNow.ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture) },
                { "items", items },
                { "totalAmount", Json.Field(started, "totalAmount") },
            };
            object afterReceipt = bridge.Intent("pay.receipt",
                new Dictionary<string, object> { { "paymentId", paymentId }, { "receipt", receipt } });
            Print("receipt: " + (true.Equals(Json.Field(afterReceipt, "receiptSent")) ? "sent" : "not sent"));

            // The refundId is ours too: sending the same refund again never refunds twice.
            object afterRefund = bridge.Intent("pay.refund",
                new Dictionary<string, object> { { "paymentId", paymentId }, { "refundId", paymentId + "-refund-1" } });
            Print("refund: " + Json.Text(afterRefund, "refundedAmount") + " kopecks, phase "
                + Json.Text(afterRefund, "phase"));
            return 0;
        }

        static Dictionary<string, object> Item(string name, string article, long quantity, long price)
        {
            return new Dictionary<string, object>
            {
                { "name", name }, { "article", article }, { "quantity", quantity }, { "price", price },
            };
        }

        /// <summary>Prints the final phase; 0 for succeeded.</summary>
        static int Finish(object update)
        {
            if (update == null)
            {
                Print("phase: no outcome within " + CustomerTimeMs / 1000 + " s");
                return 1;
            }
            string reason = Json.Field(update, "reason") != null ? " (" + Json.Text(update, "reason") + ")" : "";
            Print("phase: " + Json.Text(update, "phase") + reason);
            return Json.Text(update, "phase") == "succeeded" ? 0 : 1;
        }

        static string RequireEnv(string name)
        {
            string value = Environment.GetEnvironmentVariable(name);
            if (!string.IsNullOrEmpty(value)) return value;
            Console.Error.WriteLine("till: set " + name);
            Environment.Exit(2);
            return null;
        }
    }
}
