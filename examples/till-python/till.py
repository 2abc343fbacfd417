#!/usr/bin/env python3
"""A reference till on the cash desk's bridge (wallet-pos.v1): one sale paid with the wallet, start to end.

  1. the customer shows the wallet app's barcode: barcode.verify (loyalty), then pay.start with the same scan
  2. follow the payment by its pay.sessionUpdated notifications until the customer confirms in the app
  3. the link drops meanwhile (simulated): reconnect, and fetch the events missed (pay.events)
  4. succeeded: send the receipt; then refund it all, as a customer returning the goods would ask

Configuration (environment): WPK_CASHDESK_URL, WPK_TILL_KEY, and WPK_SANDBOX_URL (the sandbox wallet service,
which plays the customer here). Exit 0 when the payment succeeded; 1 otherwise.

Python 3 and the websockets package only (Debian: apt-get install -y python3-websockets).
"""

import asyncio
import itertools
import json
import os
import random
import sys
import time
import urllib.parse
import urllib.request
from datetime import datetime, timezone

import websockets

SUBPROTOCOL = "wallet-pos.v1"
# Error codes (error.data.code) that mean "send the same intent again after a pause".
RETRY_CODES = {"DATABASE_UNAVAILABLE", "PAYMENT_BUSY", "PAYMENT_MOVED"}
MAX_ATTEMPTS = 8
# A pay.start may wait for the Pay API (10 s by default on the server): leave it room.
CALL_TIMEOUT_S = 30
# Phases in which the till stops waiting: the payment is paid, or needs a person to decide.
OUTCOMES = {"succeeded", "unsuccessful", "unavailable", "blocked", "abandoned", "rescanning"}
CUSTOMER_TIME_S = 60

# websockets 14 renamed the argument for extra request headers (Debian 12 ships 10.4; newer releases 14 and later).
HEADERS_ARGUMENT = "additional_headers" if int(websockets.__version__.split(".")[0]) >= 14 else "extra_headers"


def say(line):
    print("till:", line, flush=True)


def backoff_seconds(attempt):
    """0.5 s, 1 s, 2 s ... up to 10 s, each somewhere between half and all of it, so tills do not retry in step."""
    ceiling = min(10.0, 0.5 * 2 ** (attempt - 1))
    return random.uniform(ceiling / 2, ceiling)


class RpcError(Exception):
    """A JSON-RPC error answer. Branch on data_code, the stable code; the message is for people."""

    def __init__(self, error):
        data = error.get("data") or {}
        self.code = error.get("code")
        self.data_code = data.get("code")
        self.retry_after_ms = data.get("retryAfterMs")  # set when the server says how long to wait
        super().__init__(f"{self.data_code}: {error.get('message')}")


class ConnectionLost(Exception):
    """The connection went away before the answer came: the server may or may not have run the call."""


class Bridge:
    """The till's connection to the cash desk's bridge: JSON-RPC 2.0 over WebSocket, subprotocol wallet-pos.v1.

    - call() sends one request and waits for the answer carrying the same id. Answers may overtake each other,
      so each call waits on its own id, never on "the next frame".
    - Notifications (pay.sessionUpdated) go to on_notification, in the order they came.
    - When the connection drops, the calls waiting on it fail with ConnectionLost, and a background task connects
      again with backoff for as long as the till runs. intent() sends a call again after such a failure, and
      after the answers that say "retry".
    """

    def __init__(self, url, till_key, on_notification):
        self._url = url
        self._headers = {"Authorization": f"Bearer {till_key}"}
        self._on_notification = on_notification
        self._ids = itertools.count(1)
        self._waiting = {}  # the calls sent and not yet answered: JSON-RPC id -> future of the answer
        self._socket = None
        self._connected = asyncio.Event()
        self._closing = False
        self._keeper = None

    async def start(self):
        """Starts connecting (and reconnecting whenever the link drops); waits until the first connection is open."""
        self._keeper = asyncio.create_task(self._keep_connected())
        await asyncio.wait_for(self._connected.wait(), CALL_TIMEOUT_S)

    async def close(self):
        self._closing = True
        if self._socket is not None:
            await self._socket.close()
        await self._keeper

    async def intent(self, method, params):
        """Sends an intent until the server answers it: after a lost connection (once reconnected) and after the
        answers DATABASE_UNAVAILABLE, PAYMENT_BUSY and PAYMENT_MOVED, with a growing pause. Safe because every
        intent is idempotent: pay.start by its paymentId, pay.refund by its refundId."""
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                return await self.call(method, params)
            except RpcError as error:
                if error.data_code not in RETRY_CODES or attempt == MAX_ATTEMPTS:
                    raise
                pause = error.retry_after_ms / 1000 if error.retry_after_ms else backoff_seconds(attempt)
                say(f"{method} answered {error.data_code}: again in {pause:.1f} s")
            except ConnectionLost as error:
                if attempt == MAX_ATTEMPTS:
                    raise
                pause = backoff_seconds(attempt)
                say(f"{method} lost ({error}): again in {pause:.1f} s")
            await asyncio.sleep(pause)

    async def call(self, method, params):
        """Sends one request and waits for its answer: the result, or the error raised as RpcError."""
        try:
            await asyncio.wait_for(self._connected.wait(), CALL_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise ConnectionLost("not connected") from None
        socket = self._socket
        call_id = next(self._ids)
        answer = asyncio.get_running_loop().create_future()
        self._waiting[call_id] = answer
        try:
            await socket.send(json.dumps({"jsonrpc": "2.0", "id": call_id, "method": method, "params": params}))
            frame = await asyncio.wait_for(answer, CALL_TIMEOUT_S)
        except websockets.exceptions.ConnectionClosed as closed:
            raise ConnectionLost(str(closed)) from None
        except asyncio.TimeoutError:
            raise ConnectionLost(f"no answer within {CALL_TIMEOUT_S} s") from None
        finally:
            self._waiting.pop(call_id, None)
        if "error" in frame:
            raise RpcError(frame["error"])
        return frame.get("result")

    def simulate_lost_connection(self):
        """Cuts the connection without a goodbye, as a pulled cable would; the till reconnects by itself."""
        if self._socket is not None:
            self._socket.transport.abort()

    async def _keep_connected(self):
        """The background task: connect, read until the link is lost, pause, connect again."""
        failures = 0
        while not self._closing:
            try:
                async with websockets.connect(self._url, subprotocols=[SUBPROTOCOL],
                                              **{HEADERS_ARGUMENT: self._headers}) as socket:
                    failures = 0
                    self._socket = socket
                    self._connected.set()
                    say(f"connected to {self._url}")
                    # websockets answers the server's pings, and pings the server itself: a dead link ends this loop.
                    async for frame in socket:
                        self._handle_frame(frame)
                    why = f"closed by the server: {socket.close_code} {socket.close_reason}"
            except websockets.exceptions.ConnectionClosed as closed:
                why = str(closed)
            except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException) as error:
                why = f"cannot connect: {error!r}"
            self._connected.clear()
            self._socket = None
            # Calls still waiting were sent on this connection: their answers will never come.
            for answer in self._waiting.values():
                if not answer.done():
                    answer.set_exception(ConnectionLost(why))
            if self._closing:
                return
            say(f"connection lost ({why}): reconnecting")
            failures += 1
            await asyncio.sleep(backoff_seconds(failures))

    def _handle_frame(self, text):
        """An answer goes to the call waiting on its id; a notification to on_notification. A batch is a list."""
        try:
            frame = json.loads(text)
        except ValueError as error:
            say(f"ignored a frame that is not JSON: {error}")
            return
        for message in frame if isinstance(frame, list) else [frame]:
            if "method" in message:
                self._on_notification(message.get("params") or {})
            elif message.get("id") in self._waiting:
                answer = self._waiting[message["id"]]
                if not answer.done():
                    answer.set_result(message)
            else:
                say(f"an answer to no call waiting: {text}")  # e.g. a parse error (id null), or a late answer


class PaymentUpdates:
    """The pay.sessionUpdated notifications of this till's payments, each taken once and in order.

    Every notification carries the payment's event number, seq (1, 2, 3 ...); the till keeps the last one it took
    per payment. After a reconnection the server first restates the current state of each open payment
    ("restated": true, with the seq it stands at). When that seq is past the last one taken, events were missed
    while the link was down: the till asks for them (pay.events after its last seq) and takes them in order, before
    anything newer.
    """

    def __init__(self):
        self.bridge = None  # set once the bridge exists (it hands its notifications here, so it comes second)
        self._last_seq = {}
        self._catching_up = {}  # payments whose missed events are being fetched: the notifications that came meanwhile
        self._catch_up_tasks = set()  # asyncio keeps only weak references to tasks: hold them until they end
        self._taken = asyncio.Queue()

    def on_session_updated(self, update):
        """Called by the bridge for every pay.sessionUpdated (in its reading task: never wait here)."""
        payment_id = update.get("paymentId")
        if payment_id in self._catching_up:
            self._catching_up[payment_id].append(update)  # taken once the missed events are in, so the order holds
            return
        last = self._last_seq.get(payment_id, 0)
        seq = update.get("seq") or 0
        # A restated state is not an event: even one step ahead, the event it sums up (with its "event" field,
        # such as refundUpdated) was missed. A payment never seen before has nothing missed.
        restated = update.get("restated") is True
        missed_some = last > 0 and seq > (last if restated else last + 1)
        if not missed_some:
            self._take_if_new(update)
            return
        self._catching_up[payment_id] = [update]
        # A task of its own: the answer to pay.events comes through the reading task, which is this one.
        task = asyncio.get_running_loop().create_task(self._catch_up(payment_id, last))
        self._catch_up_tasks.add(task)
        task.add_done_callback(self._catch_up_tasks.discard)

    async def _catch_up(self, payment_id, after_seq):
        missed = []
        try:
            answer = await self.bridge.intent("pay.events", {"paymentId": payment_id, "afterSeq": after_seq})
            missed = answer["events"]
            say(f"pay.events {payment_id} after seq {after_seq}: {len(missed)} missed")
        except (RpcError, ConnectionLost) as error:
            # A server without pay.events, or no answer at all: go on with what came, the current state at least.
            say(f"pay.events {payment_id} failed ({error}): taking the restated state")
        for update in missed + self._catching_up.pop(payment_id):
            self._take_if_new(update)

    def _take_if_new(self, update):
        payment_id, seq = update.get("paymentId"), update.get("seq")
        if seq is not None:
            if seq <= self._last_seq.get(payment_id, 0):
                return  # had it already
            self._last_seq[payment_id] = seq
        event = f" ({update['event']})" if "event" in update else ""
        restated = " (restated)" if update.get("restated") is True else ""
        say(f"pay.sessionUpdated {payment_id} seq {seq}: {update.get('phase')}{event}{restated}")
        self._taken.put_nowait(update)

    async def wait_for_phase(self, payment_id, phases, timeout_s):
        """Waits for the payment to reach one of the phases; returns that update, or None when the time runs out.
        The updates of other payments, and those in other phases, are passed over."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                update = await asyncio.wait_for(self._taken.get(), max(deadline - time.monotonic(), 0))
            except asyncio.TimeoutError:
                return None
            if update.get("paymentId") == payment_id and update.get("phase") in phases:
                return update


class Sandbox:
    """The kit's sandbox wallet service, standing in for the customer and the phone: it issues a card (whose
    barcode the till scans) and confirms the invoice the way the customer does in the wallet app. A real till has
    none of this: the customer shows the barcode and taps Confirm. (urllib blocks: run it off the event loop.)"""

    def __init__(self, base_url):
        self._base_url = base_url.rstrip("/")

    async def issue_card(self):
        """A fresh card: cardNumber, barcode (what the till scans), ..."""
        return await asyncio.to_thread(self._request, "/sandbox/cards", {})

    async def confirm_as_customer(self, card_number, transaction_id):
        query = urllib.parse.urlencode({"cardNumber": card_number})
        invoices = (await asyncio.to_thread(self._request, f"/sandbox/app/invoices?{query}"))["invoices"]
        for invoice in invoices:
            if str(invoice["transactionId"]) == str(transaction_id):
                path = f"/sandbox/app/transactions/{urllib.parse.quote(str(transaction_id), safe='')}/confirm"
                await asyncio.to_thread(self._request, path, {})
                return
        raise RuntimeError(f"the wallet app shows no invoice {transaction_id} for card {card_number}")

    def _request(self, path, body=None):
        """GET, or POST with a JSON body; the JSON answer. A status other than 2xx raises HTTPError."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self._base_url + path, data=data,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)


def finish(update):
    """Prints the final phase; 0 for succeeded."""
    if update is None:
        print(f"phase: no outcome within {CUSTOMER_TIME_S} s", flush=True)
        return 1
    reason = f" ({update['reason']})" if "reason" in update else ""
    print(f"phase: {update['phase']}{reason}", flush=True)
    return 0 if update["phase"] == "succeeded" else 1


async def sell(bridge, updates, sandbox):
    # The customer opens the wallet app; its barcode is what the till's scanner reads.
    card = await sandbox.issue_card()
    card_number, scan = card["cardNumber"], card["barcode"]
    say(f"scanned the barcode of card {card_number}")

    # Loyalty first: is this a valid card of ours? The same scan then pays (once, by this till).
    verification = await bridge.intent("barcode.verify", {"fullBarcode": scan})
    say(f"barcode.verify: {verification['resultCode']} ({verification.get('reason')})")
    if verification["resultCode"] != "CARDSESSION_AVAILABLE":
        return 1

    # The paymentId is ours: it makes pay.start safe to send again after a lost answer.
    payment_id = f"till-python-{int(time.time() * 1000)}"
    items = [
        {"name": "Coffee beans 1 kg", "article": "DEMO-1", "quantity": 1, "price": 20000},
        {"name": "Croissant", "article": "DEMO-2", "quantity": 2, "price": 2500},
    ]
    basket = {"items": items, "discountAmount": 0}
    started = await bridge.intent("pay.start", {"fullBarcode": scan, "basket": basket, "paymentId": payment_id})
    say(f"pay.start {payment_id}: {started['phase']}, {started['totalAmount']} kopecks")

    # Notifications may have come before this answer: they wait in `updates`, nothing is lost.
    update = await updates.wait_for_phase(payment_id, OUTCOMES | {"pending", "offered"}, CUSTOMER_TIME_S)
    if update is not None and update["phase"] == "offered":
        # The customer has several ways to pay and chose the wallet: check out.
        await bridge.intent("pay.checkout", {"paymentId": payment_id})
        update = await updates.wait_for_phase(payment_id, OUTCOMES | {"pending"}, CUSTOMER_TIME_S)
    if update is None or update["phase"] != "pending":
        return finish(update)

    # The invoice is on the customer's phone. Our link drops now, while the customer confirms: the bridge
    # reconnects by itself, the server restates each open payment, and PaymentUpdates fetches the events missed.
    bridge.simulate_lost_connection()
    await sandbox.confirm_as_customer(card_number, update["transactionId"])
    say("the customer confirmed in the wallet app")
    exit_code = finish(await updates.wait_for_phase(payment_id, OUTCOMES, CUSTOMER_TIME_S))
    if exit_code != 0:
        return exit_code

    receipt = {"number": payment_id, "issuedAt": datetime.now(timezone.utc).isoformat(), "items": items,
               "totalAmount": started["totalAmount"]}
    after_receipt = await bridge.intent("pay.receipt", {"paymentId": payment_id, "receipt": receipt})
    print("receipt:", "sent" if after_receipt.get("receiptSent") else "not sent", flush=True)

    # The refundId is ours too: sending the same refund again never refunds twice.
    after_refund = await bridge.intent("pay.refund", {"paymentId": payment_id, "refundId": f"{payment_id}-refund-1"})
    print(f"refund: {after_refund.get('refundedAmount')} kopecks, phase {after_refund['phase']}", flush=True)
    return 0


def require_env(name):
    value = os.environ.get(name)
    if not value:
        print(f"till: set {name}", file=sys.stderr)
        sys.exit(2)
    return value


async def main():
    cash_desk_url = require_env("WPK_CASHDESK_URL").rstrip("/")
    bridge_url = "ws" + cash_desk_url[len("http"):] + "/ws"  # http -> ws, https -> wss
    till_key = require_env("WPK_TILL_KEY")
    sandbox = Sandbox(require_env("WPK_SANDBOX_URL"))
    updates = PaymentUpdates()
    bridge = Bridge(bridge_url, till_key, updates.on_session_updated)
    updates.bridge = bridge
    await bridge.start()
    try:
        return await sell(bridge, updates, sandbox)
    finally:
        await bridge.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
