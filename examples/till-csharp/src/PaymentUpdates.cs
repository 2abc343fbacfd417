// The pay.sessionUpdated notifications of this till's payments, each taken once and in order.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;

namespace WalletTill
{
    /// <summary>
    /// Every notification carries the payment's event number, seq (1, 2, 3 ...); the till keeps the last one it took
    /// per payment. After a reconnection the server first restates the current state of each open payment
    /// ("restated": true, with the seq it stands at). When that seq is past the last one taken, events were missed
    /// while the link was down: the till asks for them (pay.events after its last seq) and takes them in order,
    /// before anything newer.
    /// </summary>
    public sealed class PaymentUpdates
    {
        readonly object sync = new object();
        readonly Dictionary<string, long> lastSeq = new Dictionary<string, long>();
        // Payments whose missed events are being fetched: the notifications that came meanwhile, in order.
        readonly Dictionary<string, List<object>> catchingUp = new Dictionary<string, List<object>>();
        readonly BlockingCollection<object> taken = new BlockingCollection<object>();

        /// <summary>Set once the bridge exists (it hands its notifications here, so it comes second).</summary>
        public Bridge Bridge;

        /// <summary>Called by the bridge for each pay.sessionUpdated, on its reading thread: never wait here.</summary>
        public void OnSessionUpdated(object update)
        {
            string paymentId = Json.Text(update, "paymentId");
            if (paymentId == null) return;
            lock (sync)
            {
                List<object> held;
                if (catchingUp.TryGetValue(paymentId, out held))
                {
                    held.Add(update); // taken once the missed events are in, so the order holds
                    return;
                }
                long last;
                lastSeq.TryGetValue(paymentId, out last);
                long seq = Json.Long(update, "seq", 0);
                // A restated state is not an event: even one step ahead, the event it sums up (refundUpdated, say)
                // was missed. A payment never seen before has nothing missed.
                bool restated = Json.Field(update, "restated") is bool && (bool)Json.Field(update, "restated");
                bool missedSome = last > 0 && seq > (restated ? last : last + 1);
                if (!missedSome)
                {
                    TakeIfNew(update);
                    return;
                }
                catchingUp[paymentId] = new List<object> { update };
                // Another thread: the answer to pay.events comes through the reading thread, which is this one.
                ThreadPool.QueueUserWorkItem(delegate { CatchUp(paymentId, last); });
            }
        }

        void CatchUp(string paymentId, long afterSeq)
        {
            var missed = new List<object>();
            try
            {
                var parameters = new Dictionary<string, object>
                {
                    { "paymentId", paymentId }, { "afterSeq", afterSeq },
                };
                object answer = Bridge.Intent("pay.events", parameters);
                missed = Json.Field(answer, "events") as List<object> ?? missed;
                Till.Say("pay.events " + paymentId + " after seq " + afterSeq + ": " + missed.Count + " missed");
            }
            catch (Exception error)
            {
                if (!(error is RpcException) && !(error is ConnectionLostException)) throw;
                // A server without pay.events, or no answer at all: go on with what came, the current state at least.
                Till.Say("pay.events " + paymentId + " failed (" + error.Message + "): taking the restated state");
            }
            lock (sync)
            {
                foreach (object update in missed) TakeIfNew(update);
                foreach (object update in catchingUp[paymentId]) TakeIfNew(update);
                catchingUp.Remove(paymentId);
            }
        }

        void TakeIfNew(object update)
        {
            string paymentId = Json.Text(update, "paymentId");
            long seq = Json.Long(update, "seq", -1);
            if (seq >= 0)
            {
                long last;
                if (lastSeq.TryGetValue(paymentId, out last) && seq <= last) return; // had it already
                lastSeq[paymentId] = seq;
            }
            string evt = Json.Field(update, "event") != null ? " (" + Json.Text(update, "event") + ")" : "";
            string restated = Json.Field(update, "restated") is bool && (bool)Json.Field(update, "restated")
                ? " (restated)" : "";
            Till.Say("pay.sessionUpdated " + paymentId + " seq " + Json.Text(update, "seq") + ": "
                + Json.Text(update, "phase") + evt + restated);
            taken.Add(update);
        }

        /// <summary>
        /// Waits for the payment to reach one of the phases; that update, or null when the time runs out. The updates
        /// of other payments, and those in other phases, are passed over.
        /// </summary>
        public object WaitForPhase(string paymentId, ICollection<string> phases, int timeoutMs)
        {
            DateTime deadline = DateTime.UtcNow.AddMilliseconds(timeoutMs);
            while (true)
            {
                int left = (int)Math.Max(0, (deadline - DateTime.UtcNow).TotalMilliseconds);
                object update;
                if (!taken.TryTake(out update, left)) return null;
                if (Json.Text(update, "paymentId") == paymentId && phases.Contains(Json.Text(update, "phase")))
                    return update;
            }
        }
    }
}
