package blobs

// The cloud drivers the README promises: gs:// (Google Cloud Storage), s3:// (AWS S3
// and compatible stores) and azblob:// (Azure Blob Storage). Credentials come from
// each provider's usual environment (ADC, AWS config/env, AZURE_* variables).
import (
	_ "gocloud.dev/blob/azureblob" // azblob://
	_ "gocloud.dev/blob/gcsblob"   // gs://
	_ "gocloud.dev/blob/s3blob"    // s3://
)
