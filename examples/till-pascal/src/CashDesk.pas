{ The cash desk server's HTTP API, as a till calls it: JSON bodies, the till key as a Bearer token, the error
  envelope read into an exception, and the intents sent again when the server says "retry". }
unit CashDesk;

{$mode delphi}{$H+}

interface

uses
  SysUtils, Classes, fphttpclient, fpjson, jsonparser;

type
  { A refusal in the documented shape: Status is the stable code ("status" of the envelope), branch on it. }
  ECashDeskRefused = class(Exception)
  public
    HttpStatus: Integer;
    Status: string;
    RetryAfterMs: Integer;
  end;

  { No answer at all: the connection failed or timed out. The server may or may not have run the call. }
  ECashDeskUnreachable = class(Exception);

  TCashDesk = class
  private
    FBaseUrl: string;
    FTillKey: string;
    function Send(const Path: string; Body: TJSONObject): TJSONObject;
  public
    constructor Create(const BaseUrl, TillKey: string);
    { POST the body, again after a lost connection and after DATABASE_UNAVAILABLE, PAYMENT_BUSY, PAYMENT_MOVED,
      STORE_UNAVAILABLE or SERVICE_UNAVAILABLE, with a growing pause. Safe because each intent is idempotent:
      a payment by its paymentId, a refund by its refundId. The caller frees the answer; Body stays the caller's. }
    function Intent(const Path: string; Body: TJSONObject): TJSONObject;
    property BaseUrl: string read FBaseUrl;
    property TillKey: string read FTillKey;
  end;

{ One line of the till's log. }
procedure Say(const Line: string);
{ 0.5 s, 1 s, 2 s ... up to 10 s, each between half and all of it, so the tills of a shop do not retry in step. }
function BackoffMs(Attempt: Integer): Integer;

implementation

const
  MaxAttempts = 8;
  { A payment may wait for the Pay API (10 s by default on the server): leave it room. }
  CallTimeoutMs = 30000;

procedure Say(const Line: string);
begin
  WriteLn('till: ', Line);
  Flush(Output);
end;

function BackoffMs(Attempt: Integer): Integer;
var
  Ceiling: Integer;
begin
  if Attempt > 6 then Attempt := 6;
  Ceiling := 500 shl (Attempt - 1);
  if Ceiling > 10000 then Ceiling := 10000;
  Result := Ceiling div 2 + Random(Ceiling div 2 + 1);
end;

function IsRetryStatus(const Status: string): Boolean;
begin
  Result := (Status = 'DATABASE_UNAVAILABLE') or (Status = 'PAYMENT_BUSY') or (Status = 'PAYMENT_MOVED')
    or (Status = 'STORE_UNAVAILABLE') or (Status = 'SERVICE_UNAVAILABLE');
end;

constructor TCashDesk.Create(const BaseUrl, TillKey: string);
begin
  inherited Create;
  FBaseUrl := BaseUrl;
  while (FBaseUrl <> '') and (FBaseUrl[Length(FBaseUrl)] = '/') do
    SetLength(FBaseUrl, Length(FBaseUrl) - 1);
  FTillKey := TillKey;
end;

function TCashDesk.Intent(const Path: string; Body: TJSONObject): TJSONObject;
var
  Attempt, PauseMs: Integer;
begin
  Attempt := 0;
  while True do
  begin
    Inc(Attempt);
    try
      Result := Send(Path, Body);
      Exit;
    except
      on E: ECashDeskRefused do
      begin
        if not IsRetryStatus(E.Status) or (Attempt = MaxAttempts) then raise;
        PauseMs := E.RetryAfterMs;
        if PauseMs <= 0 then PauseMs := BackoffMs(Attempt);
        Say(Format('POST %s answered %s: again in %.1f s', [Path, E.Status, PauseMs / 1000]));
      end;
      on E: ECashDeskUnreachable do
      begin
        if Attempt = MaxAttempts then raise;
        PauseMs := BackoffMs(Attempt);
        Say(Format('POST %s lost (%s): again in %.1f s', [Path, E.Message, PauseMs / 1000]));
      end;
    end;
    Sleep(PauseMs);
  end;
end;

function TCashDesk.Send(const Path: string; Body: TJSONObject): TJSONObject;
var
  Client: TFPHTTPClient;
  Answer: TStringStream;
  Parsed: TJSONData;
  Refused: ECashDeskRefused;
  Errors: TJSONArray;
begin
  Client := TFPHTTPClient.Create(nil);
  Answer := TStringStream.Create('');
  try
    Client.IOTimeout := CallTimeoutMs;
    Client.AddHeader('Authorization', 'Bearer ' + FTillKey);
    Client.AddHeader('Content-Type', 'application/json');
    Client.RequestBody := TStringStream.Create(Body.AsJSON);
    try
      try
        Client.HTTPMethod('POST', FBaseUrl + Path, Answer, []);
      finally
        Client.RequestBody.Free;
        Client.RequestBody := nil;
      end;
    except
      on E: Exception do
        raise ECashDeskUnreachable.Create(E.Message);
    end;
    try
      Parsed := GetJSON(Answer.DataString);
    except
      on E: Exception do
        raise ECashDeskUnreachable.CreateFmt('HTTP %d, not JSON: %s', [Client.ResponseStatusCode, E.Message]);
    end;
    if not (Parsed is TJSONObject) then
    begin
      Parsed.Free;
      raise ECashDeskUnreachable.CreateFmt('HTTP %d, not a JSON object', [Client.ResponseStatusCode]);
    end;
    if Client.ResponseStatusCode div 100 = 2 then
    begin
      Result := TJSONObject(Parsed);
      Exit;
    end;
    // The documented error shape: {"status": "<CODE>", "errors": ["..."], "requestId": "..."}.
    try
      Errors := TJSONObject(Parsed).Get('errors', TJSONArray(nil));
      if (Errors <> nil) and (Errors.Count > 0) then
        Refused := ECashDeskRefused.Create(Errors.Strings[0])
      else
        Refused := ECashDeskRefused.CreateFmt('HTTP %d', [Client.ResponseStatusCode]);
      Refused.HttpStatus := Client.ResponseStatusCode;
      Refused.Status := TJSONObject(Parsed).Get('status', '');
      Refused.RetryAfterMs := StrToIntDef(Client.GetHeader(Client.ResponseHeaders, 'Retry-After'), 0) * 1000;
    finally
      Parsed.Free;
    end;
    raise Refused;
  finally
    Answer.Free;
    Client.Free;
  end;
end;

end.
