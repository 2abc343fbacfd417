{ A reference till on the cash desk's HTTP API: one sale paid with the wallet, start to end.
    1. the customer shows the wallet app's barcode: POST /v1/barcode/verify (loyalty), then POST /v1/payments
    2. follow the payment on its event stream until the invoice is on the customer's phone
    3. close the stream meanwhile (on purpose, as a dropped link would): resume it with Last-Event-ID
    4. succeeded: send the receipt; then refund it all, as a customer returning the goods would ask
  Configuration (environment): WPK_CASHDESK_URL, WPK_TILL_KEY, WPK_SANDBOX_URL. Exit 0 when the payment succeeded. }
program Till;

{$mode delphi}{$H+}

uses
  SysUtils, Classes, DateUtils, fpjson, CashDesk, PaymentEvents, Sandbox;

const
  CustomerTimeMs = 60000;
  { Phases in which the till stops waiting: the payment is paid, or needs a person to decide. }
  Outcomes = 'succeeded,unsuccessful,unavailable,blocked,abandoned,rescanning';

function RequireEnv(const Name: string): string;
begin
  Result := GetEnvironmentVariable(Name);
  if Result = '' then
  begin
    WriteLn(StdErr, 'till: set ', Name);
    Halt(2);
  end;
end;

function Basket: TJSONObject;
begin
  Result := TJSONObject.Create([
    'items', TJSONArray.Create([
      TJSONObject.Create(['name', 'Coffee beans 1 kg', 'article', 'DEMO-1', 'quantity', 1, 'price', 20000]),
      TJSONObject.Create(['name', 'Croissant', 'article', 'DEMO-2', 'quantity', 2, 'price', 2500])]),
    'discountAmount', 0]);
end;

{ Prints the final phase; 0 for succeeded. }
function Finish(Update: TJSONObject): Integer;
var
  Reason: string;
begin
  if Update = nil then
  begin
    WriteLn('phase: no outcome within ', CustomerTimeMs div 1000, ' s');
    Result := 1;
    Exit;
  end;
  Reason := '';
  if Update.IndexOfName('reason') >= 0 then Reason := ' (' + Update.Get('reason', '') + ')';
  WriteLn('phase: ', Update.Get('phase', ''), Reason);
  if Update.Get('phase', '') = 'succeeded' then Result := 0 else Result := 1;
end;

{ The receipt and the refund, once the payment succeeded. }
procedure SendReceiptAndRefund(Desk: TCashDesk; const PaymentId: string; Started: TJSONObject);
var
  Sold, Body, Answer: TJSONObject;
begin
  Sold := Basket;
  Body := TJSONObject.Create(['receipt', TJSONObject.Create([
    'number', PaymentId,
    'issuedAt', FormatDateTime('yyyy-mm-dd"T"hh:nn:ss.zzz"Z"', LocalTimeToUniversal(Now)),
    'items', Sold.Extract('items'),
    'totalAmount', Started.Get('totalAmount', Int64(0))])]);
  Sold.Free;
  try
    Answer := Desk.Intent('/v1/payments/' + PaymentId + '/receipt', Body);
    if Answer.Get('receiptSent', False) then WriteLn('receipt: sent') else WriteLn('receipt: not sent');
    Answer.Free;
  finally
    Body.Free;
  end;
  // The refundId is ours too: sending the same refund again never refunds twice.
  Body := TJSONObject.Create(['refundId', PaymentId + '-refund-1']);
  try
    Answer := Desk.Intent('/v1/payments/' + PaymentId + '/refund', Body);
    WriteLn(Format('refund: %d kopecks, phase %s', [Answer.Get('refundedAmount', Int64(0)), Answer.Get('phase', '')]));
    Answer.Free;
  finally
    Body.Free;
  end;
end;

{ Follows the payment until the customer has confirmed it in the app; 0 when it succeeded. }
function FollowPayment(Desk: TCashDesk; Customer: TSandbox; const CardNumber, PaymentId: string): Integer;
var
  Body, Update: TJSONObject;
  Events: TPaymentEvents;
begin
  Events := TPaymentEvents.Create(Desk, PaymentId);
  try
    Update := Events.WaitForPhase(Outcomes + ',pending,offered', CustomerTimeMs);
    if (Update <> nil) and (Update.Get('phase', '') = 'offered') then
    begin
      // The customer has several ways to pay and chose the wallet: check out.
      Update.Free;
      Body := TJSONObject.Create;
      try
        Desk.Intent('/v1/payments/' + PaymentId + '/checkout', Body).Free;
      finally
        Body.Free;
      end;
      Update := Events.WaitForPhase(Outcomes + ',pending', CustomerTimeMs);
    end;
    try
      if (Update = nil) or (Update.Get('phase', '') <> 'pending') then
      begin
        Result := Finish(Update);
        Exit;
      end;
      // The invoice is on the customer's phone. The till has closed its stream (as a dropped link would): the
      // customer confirms meanwhile, and the till learns it from the events after Last-Event-ID.
      Say(Format('connection lost (the till closed the event stream on purpose after seq %d): ' +
        'resuming with Last-Event-ID', [Events.LastSeq]));
      Customer.ConfirmAsCustomer(CardNumber, Update.Get('transactionId', ''));
      Say('the customer confirmed in the wallet app');
    finally
      Update.Free;
    end;
    Update := Events.WaitForPhase(Outcomes, CustomerTimeMs);
    try
      Result := Finish(Update);
    finally
      Update.Free;
    end;
  finally
    Events.Free;
  end;
end;

function Sell(Desk: TCashDesk; Customer: TSandbox): Integer;
var
  Card, Body, Verification, Started: TJSONObject;
  PaymentId, Scan, CardNumber, ResultCode: string;
begin
  Result := 1;
  // The customer opens the wallet app; its barcode is what the till's scanner reads.
  Card := Customer.IssueCard;
  CardNumber := Card.Get('cardNumber', '');
  Scan := Card.Get('barcode', '');
  Card.Free;
  Say('scanned the barcode of card ' + CardNumber);

  // Loyalty first: is this a valid card of ours? The same scan then pays (once, by this till).
  Body := TJSONObject.Create(['fullBarcode', Scan]);
  try
    Verification := Desk.Intent('/v1/barcode/verify', Body);
  finally
    Body.Free;
  end;
  ResultCode := Verification.Get('resultCode', '');
  Say(Format('barcode.verify: %s (%s)', [ResultCode, Verification.Get('reason', '')]));
  Verification.Free;
  if ResultCode <> 'CARDSESSION_AVAILABLE' then Exit;

  // The paymentId is ours: it makes POST /v1/payments safe to send again after a lost answer.
  PaymentId := 'till-pascal-' + IntToStr(DateTimeToUnix(LocalTimeToUniversal(Now)) * 1000 + MilliSecondOf(Now));
  Body := TJSONObject.Create(['fullBarcode', Scan, 'basket', Basket, 'paymentId', PaymentId]);
  try
    Started := Desk.Intent('/v1/payments', Body);
  finally
    Body.Free;
  end;
  try
    Say(Format('pay.start %s: %s, %d kopecks',
      [PaymentId, Started.Get('phase', ''), Started.Get('totalAmount', Int64(0))]));
    Result := FollowPayment(Desk, Customer, CardNumber, PaymentId);
    if Result = 0 then SendReceiptAndRefund(Desk, PaymentId, Started);
  finally
    Started.Free;
  end;
end;

var
  Desk: TCashDesk;
  Customer: TSandbox;
begin
  Randomize;
  Desk := TCashDesk.Create(RequireEnv('WPK_CASHDESK_URL'), RequireEnv('WPK_TILL_KEY'));
  Customer := TSandbox.Create(RequireEnv('WPK_SANDBOX_URL'));
  try
    try
      ExitCode := Sell(Desk, Customer);
    except
      on E: ECashDeskRefused do
      begin
        // The stable code first: what the operator's screen (and the support desk) goes by.
        Say(Format('refused: %s (HTTP %d): %s', [E.Status, E.HttpStatus, E.Message]));
        ExitCode := 1;
      end;
      on E: Exception do
      begin
        Say('failed: ' + E.ClassName + ': ' + E.Message);
        ExitCode := 1;
      end;
    end;
  finally
    Customer.Free;
    Desk.Free;
  end;
end.
