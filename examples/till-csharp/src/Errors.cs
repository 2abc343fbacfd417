// The two ways a call can fail, kept apart because a till answers them differently.
using System;

namespace WalletTill
{
    /// <summary>A JSON-RPC error answer. Branch on DataCode (error.data.code); Message is for people.</summary>
    public sealed class RpcException : Exception
    {
        /// <summary>The JSON-RPC error code (-32004 and so on).</summary>
        public readonly long Code;
        /// <summary>error.data.code: DATABASE_UNAVAILABLE, PAYMENT_BUSY, ...; null when the server gave none.</summary>
        public readonly string DataCode;
        /// <summary>error.data.retryAfterMs when the server says how long to wait; otherwise 0.</summary>
        public readonly long RetryAfterMs;

        public RpcException(object error)
            : base(Json.Text(Json.Field(error, "data"), "code") + ": " + Json.Text(error, "message"))
        {
            object data = Json.Field(error, "data");
            Code = Json.Long(error, "code", 0);
            DataCode = Json.Text(data, "code");
            RetryAfterMs = Json.Long(data, "retryAfterMs", 0);
        }
    }

    /// <summary>The connection went away before the answer came: the server may or may not have run the call.</summary>
    public sealed class ConnectionLostException : Exception
    {
        public ConnectionLostException(string why) : base(why) { }
    }
}
