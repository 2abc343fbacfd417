// The kit's sandbox wallet service, standing in for the customer and the phone. A real till has none of this: the
// customer shows the barcode and taps Confirm in the wallet app.
using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Text;

namespace WalletTill
{
    /// <summary>Issues a card (whose barcode the till scans) and confirms an invoice as the customer does.</summary>
    public sealed class Sandbox
    {
        readonly string baseUrl;

        public Sandbox(string baseUrl)
        {
            this.baseUrl = baseUrl.TrimEnd('/');
        }

        /// <summary>A fresh card: cardNumber, barcode (what the till scans), ...</summary>
        public object IssueCard()
        {
            return Request("/sandbox/cards", new Dictionary<string, object>());
        }

        /// <summary>Finds the invoice of the transaction in the card's wallet app and confirms it.</summary>
        public void ConfirmAsCustomer(string cardNumber, string transactionId)
        {
            object answer = Request("/sandbox/app/invoices?cardNumber=" + Uri.EscapeDataString(cardNumber), null);
            var invoices = Json.Field(answer, "invoices") as List<object> ?? new List<object>();
            foreach (object invoice in invoices)
            {
                if (Json.Text(invoice, "transactionId") != transactionId) continue;
                string path = "/sandbox/app/transactions/" + Uri.EscapeDataString(transactionId) + "/confirm";
                Request(path, new Dictionary<string, object>());
                return;
            }
            throw new InvalidOperationException(
                "the wallet app shows no invoice " + transactionId + " for card " + cardNumber);
        }

        /// <summary>GET, or POST with a JSON body; the JSON answer. A status but 2xx throws WebException.</summary>
        object Request(string path, object body)
        {
            var request = (HttpWebRequest)WebRequest.Create(baseUrl + path);
            request.Timeout = 10000;
            request.ContentType = "application/json";
            if (body != null)
            {
                request.Method = "POST";
                byte[] bytes = Encoding.UTF8.GetBytes(Json.Write(body));
                request.ContentLength = bytes.Length;
                using (Stream stream = request.GetRequestStream()) stream.Write(bytes, 0, bytes.Length);
            }
            using (var response = (HttpWebResponse)request.GetResponse())
            using (var reader = new StreamReader(response.GetResponseStream(), Encoding.UTF8))
            {
                return Json.Parse(reader.ReadToEnd());
            }
        }
    }
}
