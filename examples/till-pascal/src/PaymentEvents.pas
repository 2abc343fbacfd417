{ A payment's event stream (GET /v1/payments/<id>/events): its pay.sessionUpdated events, each taken once and in
  seq order. The stream stays open until the till has what it waits for; when it breaks (or the till closed it), the
  next request sends Last-Event-ID, the seq of the last event taken, and the server sends the events after it
  first: nothing missed, nothing twice. }
unit PaymentEvents;

{$mode delphi}{$H+}

interface

uses
  SysUtils, Classes, DateUtils, fphttpclient, fpjson, jsonparser, CashDesk, SseStream;

type
  { The server refused the stream (4xx): reconnecting would not help. }
  EPaymentEventsEnded = class(Exception);

  TPaymentEvents = class
  private
    FCashDesk: TCashDesk;
    FPaymentId: string;
    FLastSeq: Int64;
    FStreams: Integer;
    FRetryMs: Integer;
    FWanted: TStringList;
    FFound: TJSONObject;
    FDeadline: TDateTime;
    FClient: TFPHTTPClient;
    procedure TakeEvent(const EventName, Data, Id: string);
    procedure CheckClock;
    function ReadStream(out Why: string): Boolean;
  public
    constructor Create(CashDesk: TCashDesk; const PaymentId: string);
    destructor Destroy; override;
    { Reads the stream until the payment reaches one of the phases (comma separated) and returns that event, the
      caller's to free; nil when TimeoutMs passes first. Reconnects, with Last-Event-ID, whenever the stream
      breaks. It closes the stream once it has the event: the next call resumes after it. }
    function WaitForPhase(const Phases: string; TimeoutMs: Integer): TJSONObject;
    { The seq of the last event taken: what Last-Event-ID says on the next stream. }
    property LastSeq: Int64 read FLastSeq;
  end;

implementation

const
  { The server sends a heartbeat comment every 15 s: three missed means the stream is dead. }
  SilenceMs = 45000;

constructor TPaymentEvents.Create(CashDesk: TCashDesk; const PaymentId: string);
begin
  inherited Create;
  FCashDesk := CashDesk;
  FPaymentId := PaymentId;
  FRetryMs := 2000;
  FWanted := TStringList.Create;
end;

destructor TPaymentEvents.Destroy;
begin
  FWanted.Free;
  inherited Destroy;
end;

function TPaymentEvents.WaitForPhase(const Phases: string; TimeoutMs: Integer): TJSONObject;
var
  Why: string;
  Failures: Integer;
begin
  FWanted.CommaText := Phases;
  FFound := nil;
  FDeadline := IncMilliSecond(Now, TimeoutMs);
  Failures := 0;
  while FFound = nil do
  begin
    if ReadStream(Why) then Failures := 0 else Inc(Failures);
    if (FFound <> nil) or (Now >= FDeadline) then Break;
    Say('connection lost (' + Why + '): reconnecting');
    // The server's retry: first, then backoff when it keeps failing.
    if Failures <= 1 then Sleep(FRetryMs) else Sleep(BackoffMs(Failures));
  end;
  Result := FFound;
  FFound := nil;
end;

{ One request: True when the stream opened (whatever ended it). }
function TPaymentEvents.ReadStream(out Why: string): Boolean;
var
  Events: TSseStream;
  Url: string;
begin
  Result := False;
  Url := FCashDesk.BaseUrl + '/v1/payments/' + FPaymentId + '/events';
  FClient := TFPHTTPClient.Create(nil);
  Events := TSseStream.Create(TakeEvent, CheckClock);
  try
    FClient.IOTimeout := SilenceMs;
    FClient.AddHeader('Authorization', 'Bearer ' + FCashDesk.TillKey);
    FClient.AddHeader('Accept', 'text/event-stream');
    if FLastSeq > 0 then FClient.AddHeader('Last-Event-ID', IntToStr(FLastSeq));
    Inc(FStreams);
    if FStreams = 1 then
      Say('connected to ' + Url)
    else
      Say(Format('reconnected to %s (Last-Event-ID: %d)', [Url, FLastSeq]));
    try
      FClient.HTTPMethod('GET', Url, Events, [200]);
      Result := True;
      Why := 'the server ended the stream';
    except
      on E: Exception do
      begin
        // A refusal (a wrong key, no such payment) does not go away by asking again: give up at once.
        if FClient.ResponseStatusCode div 100 = 4 then
          raise EPaymentEventsEnded.CreateFmt('the event stream answered HTTP %d', [FClient.ResponseStatusCode]);
        Result := FClient.ResponseStatusCode = 200;
        Why := E.Message;
      end;
    end;
    if Events.RetryMs > 0 then FRetryMs := Events.RetryMs;
  finally
    Events.Free;
    FreeAndNil(FClient);
  end;
end;

procedure TPaymentEvents.CheckClock;
begin
  if (FFound = nil) and (Now >= FDeadline) then FClient.Terminate;
end;

procedure TPaymentEvents.TakeEvent(const EventName, Data, Id: string);
var
  Parsed: TJSONData;
  Update: TJSONObject;
  Seq: Int64;
  Note: string;
begin
  if (EventName <> 'pay.sessionUpdated') or (FFound <> nil) then Exit;
  try
    Parsed := GetJSON(Data);
  except
    on E: Exception do
    begin
      Say('ignored an event that is not JSON: ' + E.Message);
      Exit;
    end;
  end;
  if not (Parsed is TJSONObject) then
  begin
    Parsed.Free;
    Exit;
  end;
  Update := TJSONObject(Parsed);
  Seq := Update.Get('seq', Int64(0));
  if (Seq > 0) and (Seq <= FLastSeq) then
  begin
    Update.Free; // had it already
    Exit;
  end;
  if Seq > 0 then FLastSeq := Seq;
  Note := '';
  if Update.IndexOfName('event') >= 0 then Note := ' (' + Update.Get('event', '') + ')';
  if Update.Get('restated', False) then Note := Note + ' (restated)';
  Say(Format('pay.sessionUpdated %s seq %d: %s%s', [FPaymentId, Seq, Update.Get('phase', ''), Note]));
  if FWanted.IndexOf(Update.Get('phase', '')) < 0 then
  begin
    Update.Free;
    Exit;
  end;
  FFound := Update;
  FClient.Terminate; // the till has what it waited for: it closes the stream, and resumes after this seq later
end;

end.
