{ A TStream that fphttpclient writes a text/event-stream body into, as it arrives: each Write is cut into lines, and
  each event (the lines up to a blank one) is handed over at once, with its id:, so the till acts on an event while
  the stream is still open. }
unit SseStream;

{$mode delphi}{$H+}

interface

uses
  SysUtils, Classes;

type
  TSseEvent = procedure(const EventName, Data, Id: string) of object;
  { Called for every line, a heartbeat comment too: where the reader checks its clock. }
  TSseLine = procedure of object;

  TSseStream = class(TStream)
  private
    FPending: string;
    FEventName: string;
    FData: string;
    FId: string;
    FLastEventId: string;
    FRetryMs: Integer;
    FOnEvent: TSseEvent;
    FOnLine: TSseLine;
    procedure TakeLine(const Line: string);
  public
    constructor Create(OnEvent: TSseEvent; OnLine: TSseLine);
    function Write(const Buffer; Count: Longint): Longint; override;
    function Read(var Buffer; Count: Longint): Longint; override;
    function Seek(const Offset: Int64; Origin: TSeekOrigin): Int64; override;
    { The id: of the last event handed over ('' before any): what a reconnection sends as Last-Event-ID. }
    property LastEventId: string read FLastEventId;
    { The retry: the server asked for, in ms (0 when it gave none). }
    property RetryMs: Integer read FRetryMs;
  end;

implementation

constructor TSseStream.Create(OnEvent: TSseEvent; OnLine: TSseLine);
begin
  inherited Create;
  FOnEvent := OnEvent;
  FOnLine := OnLine;
end;

function TSseStream.Write(const Buffer; Count: Longint): Longint;
var
  Chunk: string;
  Eol: Integer;
  Line: string;
begin
  SetString(Chunk, PChar(@Buffer), Count);
  FPending := FPending + Chunk;
  Eol := Pos(#10, FPending);
  while Eol > 0 do
  begin
    Line := Copy(FPending, 1, Eol - 1);
    Delete(FPending, 1, Eol);
    if (Line <> '') and (Line[Length(Line)] = #13) then SetLength(Line, Length(Line) - 1);
    TakeLine(Line);
    Eol := Pos(#10, FPending);
  end;
  Result := Count;
end;

procedure TSseStream.TakeLine(const Line: string);
var
  Colon: Integer;
  Field, Value: string;
begin
  if Assigned(FOnLine) then FOnLine;
  if Line = '' then
  begin
    // A blank line ends the event. An id: holds for the events after it too, so it is kept across them.
    if FId <> '' then FLastEventId := FId;
    if FData <> '' then FOnEvent(FEventName, FData, FLastEventId);
    FEventName := '';
    FData := '';
    Exit;
  end;
  if Line[1] = ':' then Exit; // a comment: the server's heartbeat, which keeps proxies from cutting the stream
  Colon := Pos(':', Line);
  if Colon = 0 then
  begin
    Field := Line;
    Value := '';
  end
  else
  begin
    Field := Copy(Line, 1, Colon - 1);
    Value := Copy(Line, Colon + 1, MaxInt);
    if (Value <> '') and (Value[1] = ' ') then Delete(Value, 1, 1);
  end;
  if Field = 'event' then FEventName := Value
  else if Field = 'id' then FId := Value
  else if Field = 'retry' then FRetryMs := StrToIntDef(Value, FRetryMs)
  else if Field = 'data' then
  begin
    if FData <> '' then FData := FData + #10;
    FData := FData + Value;
  end;
end;

function TSseStream.Read(var Buffer; Count: Longint): Longint;
begin
  Result := 0; // written to only
end;

function TSseStream.Seek(const Offset: Int64; Origin: TSeekOrigin): Int64;
begin
  Result := 0; // a stream of events has no position to go back to
end;

end.
