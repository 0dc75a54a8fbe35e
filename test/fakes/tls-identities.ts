// Test-only TLS identities for the loopback webhook receiver and SMTP relay: self-signed P-256
// certificates for `hooks.test` and `other.test` (valid 2020–2120), each its own
// trust anchor. The keys protect nothing; they are here so a test can check SNI and
// certificate verification against a name while the connection goes to 127.0.0.1.

export const HOOKS_TEST = {
  serverName: "hooks.test",
  cert: `-----BEGIN CERTIFICATE-----
MIIBUjCB+aADAgECAgEBMAoGCCqGSM49BAMCMBUxEzARBgNVBAMMCmhvb2tzLnRl
c3QwIBcNMjAwMTAxMDAwMDAwWhgPMjEyMDAxMDEwMDAwMDBaMBUxEzARBgNVBAMM
Cmhvb2tzLnRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATyYUSmn9krZJYQ
J5SLlkfDi104Ma3gq8Qg35e2RfnOFeExEWB3O/QxXOVxknrMYrkrRy6L0Kc7NUw8
wEFfVo5RozgwNjAVBgNVHREEDjAMggpob29rcy50ZXN0MB0GA1UdDgQWBBSXbFUj
g0epSDHOGztaZURrBzpKhTAKBggqhkjOPQQDAgNIADBFAiEAjts7HP16TgtZa9QR
xKIrixCjw6oOe5dW78U0M4ih5DsCICu3LfTTPOrehOYbrnm9/iJRFLWlLNVrQujT
nPot/658
-----END CERTIFICATE-----
`,
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQggGxStfkitvD/PDge
aCxRQJcHYVcaGgtOdr1KmYDan0ihRANCAATyYUSmn9krZJYQJ5SLlkfDi104Ma3g
q8Qg35e2RfnOFeExEWB3O/QxXOVxknrMYrkrRy6L0Kc7NUw8wEFfVo5R
-----END PRIVATE KEY-----
`,
};

export const OTHER_TEST = {
  serverName: "other.test",
  cert: `-----BEGIN CERTIFICATE-----
MIIBUzCB+aADAgECAgECMAoGCCqGSM49BAMCMBUxEzARBgNVBAMMCm90aGVyLnRl
c3QwIBcNMjAwMTAxMDAwMDAwWhgPMjEyMDAxMDEwMDAwMDBaMBUxEzARBgNVBAMM
Cm90aGVyLnRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQrtWwszXD3dDoB
JJWCJ/S5QlEWWbTLEcLGuWLo9OlY2OS1dv2uLJJyGFlcsFwnaKNkzWssoqEaKvRZ
tJevM2OyozgwNjAVBgNVHREEDjAMggpvdGhlci50ZXN0MB0GA1UdDgQWBBQnxTjc
1D1xc3K6nqXXT49ZkbRvHTAKBggqhkjOPQQDAgNJADBGAiEA6LkJwmgHBd7RPuhB
ukWqJErmQifs+/NByExlJ/XQPSoCIQCHOyYNjCmHm0WRlnBUWJzZw40so5FF4PrK
ta/jQiVgRw==
-----END CERTIFICATE-----
`,
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgl2cuGZrU3XdnUDZr
HotuVI8dXgS561PDFeT6roloH3ShRANCAAQrtWwszXD3dDoBJJWCJ/S5QlEWWbTL
EcLGuWLo9OlY2OS1dv2uLJJyGFlcsFwnaKNkzWssoqEaKvRZtJevM2Oy
-----END PRIVATE KEY-----
`,
};
