// The till's connection to the cash desk's bridge: JSON-RPC 2.0 over WebSocket, subprotocol wallet-pos.v1.
using System;
using System.Collections.Generic;
using System.IO;
using System.Net.WebSockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace WalletTill
{
    /// <summary>
    /// Call sends one request and waits for the answer carrying the same id (answers may overtake each other).
    /// Notifications go to the handler given, in the order they came. When the link drops, the calls waiting on it
    /// fail with ConnectionLostException and a background thread connects again with backoff. Intent sends a call
    /// again after such a failure, and after the answers that say "retry".
    /// </summary>
    public sealed class Bridge
    {
        public const string Subprotocol = "wallet-pos.v1";
        /// <summary>A pay.start may wait for the Pay API (10 s by default on the server): leave it room.</summary>
        public const int CallTimeoutMs = 30000;
        const int MaxAttempts = 8;
        static readonly string[] RetryCodes = { "DATABASE_UNAVAILABLE", "PAYMENT_BUSY", "PAYMENT_MOVED" };

        readonly Uri url;
        readonly string tillKey;
        readonly Action<object> onNotification;
        readonly object sync = new object();
        readonly Dictionary<long, TaskCompletionSource<object>> waiting =
            new Dictionary<long, TaskCompletionSource<object>>();
        readonly ManualResetEvent connected = new ManualResetEvent(false);
        // ClientWebSocket allows one SendAsync at a time: the calls of several threads take turns.
        readonly SemaphoreSlim sending = new SemaphoreSlim(1, 1);
        readonly Random jitter = new Random();
        ClientWebSocket socket;
        long nextId;
        int connections;
        volatile bool closing;
        Thread keeper;

        public Bridge(string url, string tillKey, Action<object> onNotification)
        {
            this.url = new Uri(url);
            this.tillKey = tillKey;
            this.onNotification = onNotification;
        }

        /// <summary>Starts connecting (again whenever the link drops); waits for the first connection.</summary>
        public void Start()
        {
            keeper = new Thread(KeepConnected) { IsBackground = true, Name = "bridge" };
            keeper.Start();
            if (!connected.WaitOne(CallTimeoutMs)) throw new ConnectionLostException("cannot connect to " + url);
        }

        /// <summary>Closes the connection with a goodbye and stops reconnecting.</summary>
        public void Close()
        {
            closing = true;
            ClientWebSocket current = socket;
            if (current != null && current.State == WebSocketState.Open)
            {
                try
                {
                    current.CloseAsync(WebSocketCloseStatus.NormalClosure, "till done", CancellationToken.None)
                        .Wait(5000);
                }
                catch (AggregateException) { } // closing anyway
            }
            keeper.Join(5000);
        }

        /// <summary>Cuts the connection without a goodbye, as a pulled cable would; it comes back by itself.</summary>
        public void SimulateLostConnection()
        {
            ClientWebSocket current = socket;
            if (current != null) current.Abort();
        }

        /// <summary>
        /// Sends an intent until the server answers it: after a lost connection and after the answers
        /// DATABASE_UNAVAILABLE, PAYMENT_BUSY and PAYMENT_MOVED, with a growing pause. Safe because every intent is
        /// idempotent: pay.start by its paymentId, pay.refund by its refundId.
        /// </summary>
        public object Intent(string method, object parameters)
        {
            for (int attempt = 1; ; attempt++)
            {
                int pauseMs;
                try
                {
                    return Call(method, parameters);
                }
                catch (RpcException error)
                {
                    if (Array.IndexOf(RetryCodes, error.DataCode) < 0 || attempt == MaxAttempts) throw;
                    pauseMs = error.RetryAfterMs > 0 ? (int)error.RetryAfterMs : BackoffMs(attempt);
                    Till.Say(method + " answered " + error.DataCode + ": again in " + Seconds(pauseMs) + " s");
                }
                catch (ConnectionLostException error)
                {
                    if (attempt == MaxAttempts) throw;
                    pauseMs = BackoffMs(attempt);
                    Till.Say(method + " lost (" + error.Message + "): again in " + Seconds(pauseMs) + " s");
                }
                Thread.Sleep(pauseMs);
            }
        }

        /// <summary>Sends one request and waits for its answer: the result, or the error as RpcException.</summary>
        public object Call(string method, object parameters)
        {
            if (!connected.WaitOne(CallTimeoutMs)) throw new ConnectionLostException("not connected");
            ClientWebSocket current = socket;
            var answer = new TaskCompletionSource<object>();
            long id;
            lock (sync)
            {
                id = ++nextId;
                waiting[id] = answer;
            }
            try
            {
                var request = new Dictionary<string, object>
                {
                    { "jsonrpc", "2.0" }, { "id", id }, { "method", method }, { "params", parameters },
                };
                Send(current, Json.Write(request));
                if (!answer.Task.Wait(CallTimeoutMs))
                {
                    // ClientWebSocket notices no dead link by itself: a call unanswered this long gives it up.
                    if (current != null) current.Abort();
                    throw new ConnectionLostException("no answer within " + CallTimeoutMs / 1000 + " s");
                }
            }
            catch (AggregateException failed)
            {
                Exception inner = failed.GetBaseException();
                if (inner is ConnectionLostException) throw inner;
                throw new ConnectionLostException(inner.Message);
            }
            finally
            {
                lock (sync) waiting.Remove(id);
            }
            object frame = answer.Task.Result;
            object error = Json.Field(frame, "error");
            if (error != null) throw new RpcException(error);
            return Json.Field(frame, "result");
        }

        void Send(ClientWebSocket current, string text)
        {
            if (current == null) throw new ConnectionLostException("not connected");
            byte[] bytes = Encoding.UTF8.GetBytes(text);
            sending.Wait();
            try
            {
                var whole = new ArraySegment<byte>(bytes);
                current.SendAsync(whole, WebSocketMessageType.Text, true, CancellationToken.None).Wait();
            }
            finally
            {
                sending.Release();
            }
        }

        /// <summary>The background thread: connect, read until the link is lost, pause, connect again.</summary>
        void KeepConnected()
        {
            int failures = 0;
            while (!closing)
            {
                string why;
                var current = new ClientWebSocket();
                current.Options.AddSubProtocol(Subprotocol);
                current.Options.SetRequestHeader("Authorization", "Bearer " + tillKey);
                try
                {
                    current.ConnectAsync(url, CancellationToken.None).Wait(CallTimeoutMs);
                    if (current.State != WebSocketState.Open) throw new WebSocketException("no connection in time");
                    if (current.SubProtocol != Subprotocol)
                        throw new WebSocketException("the server chose subprotocol '" + current.SubProtocol + "'");
                    failures = 0;
                    socket = current;
                    connected.Set();
                    Till.Say((++connections == 1 ? "connected to " : "reconnected to ") + url);
                    why = ReadUntilClosed(current);
                }
                catch (Exception error)
                {
                    Exception inner = error is AggregateException ? error.GetBaseException() : error;
                    why = socket == current ? inner.Message : "cannot connect: " + inner.Message;
                }
                connected.Reset();
                socket = null;
                current.Dispose();
                FailWaitingCalls(why);
                if (closing) return;
                Till.Say("connection lost (" + why + "): reconnecting");
                Thread.Sleep(BackoffMs(++failures));
            }
        }

        /// <summary>Reads whole messages (a message may come in several frames) until the server closes.</summary>
        string ReadUntilClosed(ClientWebSocket current)
        {
            var buffer = new ArraySegment<byte>(new byte[16384]);
            var message = new MemoryStream();
            while (true)
            {
                WebSocketReceiveResult frame = current.ReceiveAsync(buffer, CancellationToken.None).Result;
                if (frame.MessageType == WebSocketMessageType.Close)
                    return "closed by the server: " + (int?)frame.CloseStatus + " " + frame.CloseStatusDescription;
                message.Write(buffer.Array, 0, frame.Count);
                if (!frame.EndOfMessage) continue;
                string text = Encoding.UTF8.GetString(message.ToArray());
                message.SetLength(0);
                HandleMessage(text);
            }
        }

        /// <summary>An answer goes to the call waiting on its id and a notification to the handler.</summary>
        void HandleMessage(string text)
        {
            object parsed;
            try
            {
                parsed = Json.Parse(text);
            }
            catch (FormatException error)
            {
                Till.Say("ignored a message that is not JSON: " + error.Message);
                return;
            }
            var batch = parsed as List<object> ?? new List<object> { parsed };
            foreach (object message in batch)
            {
                if (Json.Field(message, "method") != null)
                {
                    onNotification(Json.Field(message, "params"));
                    continue;
                }
                TaskCompletionSource<object> answer = null;
                object id = Json.Field(message, "id");
                lock (sync)
                {
                    if (id is long) waiting.TryGetValue((long)id, out answer);
                }
                if (answer != null) answer.TrySetResult(message);
                else Till.Say("an answer to no call waiting: " + text); // a parse error (id null), or a late answer
            }
        }

        void FailWaitingCalls(string why)
        {
            lock (sync)
            {
                foreach (TaskCompletionSource<object> answer in waiting.Values)
                    answer.TrySetException(new ConnectionLostException(why));
            }
        }

        /// <summary>0.5 s, 1 s, 2 s ... to 10 s, each between half and all of it: tills do not retry in step.</summary>
        int BackoffMs(int attempt)
        {
            double ceiling = Math.Min(10000, 500 * Math.Pow(2, Math.Min(attempt, 10) - 1));
            lock (jitter) return (int)(ceiling / 2 + jitter.NextDouble() * ceiling / 2);
        }

        static string Seconds(int ms)
        {
            return (ms / 1000.0).ToString("0.0", System.Globalization.CultureInfo.InvariantCulture);
        }
    }
}
