{ The kit's sandbox wallet service, standing in for the customer and the phone: it issues a card (whose barcode the
  till scans) and confirms the invoice the way the customer does in the wallet app. A real till has none of this. }
unit Sandbox;

{$mode delphi}{$H+}

interface

uses
  SysUtils, Classes, fphttpclient, fpjson, jsonparser;

type
  TSandbox = class
  private
    FBaseUrl: string;
    function Request(const Method, Path, Body: string): TJSONObject;
  public
    constructor Create(const BaseUrl: string);
    { A fresh card: cardNumber, barcode (what the till scans), ...; the caller frees it. }
    function IssueCard: TJSONObject;
    procedure ConfirmAsCustomer(const CardNumber, TransactionId: string);
  end;

implementation

constructor TSandbox.Create(const BaseUrl: string);
begin
  inherited Create;
  FBaseUrl := BaseUrl;
  while (FBaseUrl <> '') and (FBaseUrl[Length(FBaseUrl)] = '/') do
    SetLength(FBaseUrl, Length(FBaseUrl) - 1);
end;

function TSandbox.IssueCard: TJSONObject;
begin
  Result := Request('POST', '/sandbox/cards', '{}');
end;

procedure TSandbox.ConfirmAsCustomer(const CardNumber, TransactionId: string);
var
  Answer: TJSONObject;
  Invoices: TJSONArray;
  I: Integer;
begin
  Answer := Request('GET', '/sandbox/app/invoices?cardNumber=' + EncodeURLElement(CardNumber), '');
  try
    Invoices := Answer.Get('invoices', TJSONArray(nil));
    if Invoices <> nil then
      for I := 0 to Invoices.Count - 1 do
        if (Invoices.Items[I] is TJSONObject)
          and (TJSONObject(Invoices.Items[I]).Get('transactionId', '') = TransactionId) then
        begin
          Request('POST', '/sandbox/app/transactions/' + EncodeURLElement(TransactionId) + '/confirm', '{}').Free;
          Exit;
        end;
  finally
    Answer.Free;
  end;
  raise Exception.CreateFmt('the wallet app shows no invoice %s for card %s', [TransactionId, CardNumber]);
end;

{ The JSON object answered; an exception for any status but 2xx. }
function TSandbox.Request(const Method, Path, Body: string): TJSONObject;
var
  Client: TFPHTTPClient;
  Answer: TStringStream;
  Parsed: TJSONData;
begin
  Client := TFPHTTPClient.Create(nil);
  Answer := TStringStream.Create('');
  try
    Client.IOTimeout := 10000;
    if Body <> '' then
    begin
      Client.AddHeader('Content-Type', 'application/json');
      Client.RequestBody := TStringStream.Create(Body);
    end;
    try
      Client.HTTPMethod(Method, FBaseUrl + Path, Answer, [200, 201]);
    finally
      Client.RequestBody.Free;
    end;
    Parsed := GetJSON(Answer.DataString);
    if not (Parsed is TJSONObject) then
    begin
      Parsed.Free;
      raise Exception.Create('the sandbox answered no JSON object for ' + Path);
    end;
    Result := TJSONObject(Parsed);
  finally
    Answer.Free;
    Client.Free;
  end;
end;

end.
